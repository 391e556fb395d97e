import type { MedusaContainer } from "@medusajs/framework/types"
import { createUserAccountWorkflow } from "@medusajs/medusa/core-flows"
import { expectKeptWithoutKey, keepResponses } from "./kept-responses"

export interface AdminSession {
  userId: string
  email: string
  token: string
  headers: { headers: Record<string, string> }
}

function jwtPayload(token: string): Record<string, any> {
  const part = token.split(".")[1]
  return JSON.parse(Buffer.from(part.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8"))
}

/**
 * A real admin, the way the dashboard gets one: register an emailpass
 * identity over HTTP, attach a user to it (Medusa's own workflow), then log
 * in with email and password and use the token the auth route returns.
 */
export async function createAdmin(
  api: any,
  container: MedusaContainer,
  email = "admin@odeme.test",
  password = "s3cret-Passw0rd!"
): Promise<AdminSession> {
  const registered = await api.post("/auth/user/emailpass/register", { email, password })
  const authIdentityId = jwtPayload(registered.data.token).auth_identity_id as string
  const { result: user } = await createUserAccountWorkflow(container).run({
    input: { authIdentityId, userData: { email, first_name: "Admin", last_name: "Odeme" } },
  })
  const login = await api.post("/auth/user/emailpass", { email, password })
  const token = login.data.token as string
  if (!token) throw new Error(`admin login returned no token: ${JSON.stringify(login.data)}`)
  return { userId: user.id, email, token, headers: { headers: { authorization: `Bearer ${token}` } } }
}

/** Every admin response (body and headers) the test client gets: see keepResponses. */
export function keepAdminResponses(api: any): string[] {
  return keepResponses(api, "/admin/")
}

/**
 * For a Medusa test suite: a fresh admin before each test, `get`/`post` as that
 * admin (any status answered), and every admin response of the file checked
 * for the API key once all tests ran (at least `minResponses` of them).
 */
export function adminClient(api: any, getContainer: () => MedusaContainer, opts: { apiKey: () => string; minResponses: number }) {
  let admin: AdminSession
  let bodies: string[] = []
  beforeAll(() => {
    bodies = keepAdminResponses(api)
  })
  beforeEach(async () => {
    admin = await createAdmin(api, getContainer())
  })
  afterAll(() => expectKeptWithoutKey(bodies, opts.apiKey(), opts.minResponses))
  return {
    get: (url: string) => api.get(url, { ...admin.headers, validateStatus: () => true }),
    post: (url: string, body: unknown = {}) => api.post(url, body, { ...admin.headers, validateStatus: () => true }),
  }
}
