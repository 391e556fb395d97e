import { isReturnProof, returnProof, sessionTag, taggedSessionId } from "../session-tag"

const KEY = "sandbox_test_key_0001"
const SESSION = "payses_01ABCDEFGHJKMNPQRSTVWXYZ0"

describe("a return address's proof", () => {
  it("is the session's own: another session's, another key's, a cut or a padded one prove nothing", () => {
    const proof = returnProof(KEY, SESSION)
    expect(proof).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(isReturnProof(KEY, SESSION, proof)).toBe(true)
    expect(isReturnProof(KEY, "payses_01ANOTHERSESSION000000000", proof)).toBe(false)
    expect(isReturnProof("another_key", SESSION, proof)).toBe(false)
    expect(isReturnProof(KEY, SESSION, proof.slice(0, 21))).toBe(false)
    expect(isReturnProof(KEY, SESSION, `${proof}A`)).toBe(false)
    expect(isReturnProof(KEY, SESSION, undefined)).toBe(false)
    expect(isReturnProof(KEY, SESSION, "")).toBe(false)
  })

  it("is not the session tag, so an address a shopper sees never proves ownership of session data", () => {
    const proof = returnProof(KEY, SESSION)
    expect(sessionTag(KEY, SESSION).startsWith(proof)).toBe(false)
    expect(taggedSessionId(KEY, { session_id: SESSION, session_tag: proof })).toBeNull()
  })
})
