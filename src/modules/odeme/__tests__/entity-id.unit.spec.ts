import { generateEntityId } from "@medusajs/framework/utils"
import { newEntityId } from "../rows"

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const decodeTime = (ulid: string) => [...ulid.slice(0, 10)].reduce((t, c) => t * 32 + CROCKFORD.indexOf(c), 0)

describe("newEntityId", () => {
  it("has the shape of Medusa's generateEntityId: prefix, underscore, a 26-character ULID", () => {
    const ours = newEntityId("odntf")
    const medusa = generateEntityId(undefined, "odntf")
    expect(ours).toMatch(/^odntf_[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(ours.length).toBe(medusa.length)
  })

  it("carries the time of its creation in its first ten characters, so ids sort by time as ULIDs do", () => {
    const before = Date.now()
    const id = newEntityId("odpay").slice("odpay_".length)
    const after = Date.now()
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before)
    expect(decodeTime(id)).toBeLessThanOrEqual(after)
    // Medusa's ids of the same moment decode to the same time.
    const medusaTime = decodeTime(generateEntityId(undefined, "odpay").slice("odpay_".length))
    expect(Math.abs(medusaTime - after)).toBeLessThan(1000)
  })

  it("never repeats over many pool refills, and its random characters use the whole alphabet evenly", () => {
    const n = 50_000 // 16 bytes each: about 195 refills of the 4 KiB pool
    const ids = new Set<string>()
    const counts = new Map<string, number>()
    for (let i = 0; i < n; i++) {
      const id = newEntityId("odchg")
      ids.add(id)
      for (const c of id.slice(-16)) counts.set(c, (counts.get(c) ?? 0) + 1)
    }
    expect(ids.size).toBe(n)
    expect(counts.size).toBe(32)
    const expected = (n * 16) / 32
    // 25,000 draws per character: a uniform source stays within a few percent.
    for (const c of counts.values()) expect(Math.abs(c - expected) / expected).toBeLessThan(0.05)
  })
})
