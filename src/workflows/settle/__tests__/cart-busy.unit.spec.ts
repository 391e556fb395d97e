import { MedusaError } from "@medusajs/framework/utils"
import { odemeErrorCode } from "../../../storefront/error-codes"
import { cartBusyAnswer, cartBusyError, isCartBusy } from "../lock"

/**
 * A busy cart keeps its code on the way to the storefront: Medusa's error handler answers every CONFLICT with
 * its own generic text, so the form route answers the 409 itself (found by the soak: a stock-failed completion
 * held the cart's lock, and the shopper got Medusa's words with no code to translate).
 */
describe("a busy cart", () => {
  it("is told apart from other errors, conflicts included", () => {
    expect(isCartBusy(cartBusyError())).toBe(true)
    expect(isCartBusy(new MedusaError(MedusaError.Types.CONFLICT, "another conflict"))).toBe(false)
    expect(isCartBusy(new Error("odeme.cart_busy"))).toBe(false)
  })

  it("is answered with the code the storefront translates, in the body and in the message", () => {
    const body = cartBusyAnswer()
    expect(body.code).toBe("odeme.cart_busy")
    expect(odemeErrorCode(body)).toBe("odeme.cart_busy")
    expect(odemeErrorCode({ message: body.message })).toBe("odeme.cart_busy")
  })
})
