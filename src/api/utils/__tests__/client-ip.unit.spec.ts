import { addressesSeen, odemeSessionInput } from "../client-ip"

const options = { trustProxy: false, trustedStorefrontAddresses: [] as string[] }
/** A session request as Medusa's store route hands it to the guard, connected from `from`. */
const request = (provider: string, from: string, headers: Record<string, string> = {}) =>
  ({
    body: { provider_id: provider, data: {} },
    headers,
    socket: { remoteAddress: from },
    scope: { resolve: () => ({ odemeOptions: options }) },
  }) as never

function guard(req: never): unknown {
  let passed: unknown = "not called"
  odemeSessionInput(req, {} as never, (err?: unknown) => (passed = err))
  return passed
}

describe("what Settings is told of customers' addresses", () => {
  beforeEach(() => {
    addressesSeen.proxiedAt = null
    addressesSeen.privateAddress = null
  })

  it("a Quick Checkout session notes nothing: its form is posted by the browser, the service is told no address of ours", () => {
    expect(guard(request("pp_odeme-checkout_odeme", "10.0.0.7", { "x-forwarded-for": "203.0.113.9" }))).toBeUndefined()
    expect(addressesSeen).toEqual({ proxiedAt: null, privateAddress: null })
  })

  it("a transfer session from a private address notes the proxy header and the private address", () => {
    const req = request("pp_odeme-transfer_odeme", "10.0.0.7", { "x-forwarded-for": "203.0.113.9" })
    expect(guard(req)).toBeUndefined()
    expect(addressesSeen).toEqual({ proxiedAt: expect.any(String), privateAddress: "10.0.0.7" })
    expect((req as { body: { data: { client_ip?: string } } }).body.data.client_ip).toBe("10.0.0.7")
  })

  it("a transfer session from the internet notes nothing, whatever header it sends", () => {
    expect(guard(request("pp_odeme-transfer_odeme", "198.51.100.4", { "x-forwarded-for": "10.0.0.1" }))).toBeUndefined()
    expect(addressesSeen).toEqual({ proxiedAt: null, privateAddress: null })
  })
})
