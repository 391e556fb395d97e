import { MedusaError } from "@medusajs/framework/utils"
import { errorText } from "../error-text"

describe("errorText", () => {
  it("gives an Error's message", () => {
    expect(errorText(new MedusaError(MedusaError.Types.NOT_ALLOWED, "stock ran out"))).toBe("stock ran out")
  })

  it("gives the message of an error Medusa's stored workflows throw as a plain object", () => {
    expect(errorText({ message: "Some variant does not have the required inventory", name: "Error", stack: "…" })).toBe(
      "Some variant does not have the required inventory"
    )
  })

  it("gives anything else as text", () => {
    expect(errorText("timeout")).toBe("timeout")
    expect(errorText(undefined)).toBe("undefined")
    expect(errorText({ message: 42 })).toBe("[object Object]")
  })
})
