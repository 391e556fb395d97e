import { quickCheckoutFormSchema, type OdemeQuickCheckoutForm } from "./responses"
import { zodMessage } from "./validation-message"

/** The part of `document` the form needs; a test passes a fake one. */
export interface FormDocument {
  createElement(tag: "form"): HTMLFormElement
  createElement(tag: "input"): HTMLInputElement
  body: { appendChild(node: HTMLFormElement): unknown }
}

/**
 * Posts a signed Quick Checkout form the way the service expects: as a real
 * top-level form POST (the fields are the signed ones, posted unchanged; a
 * fetch would neither navigate nor carry the customer's session there). The
 * customer leaves the page. Get the form from
 * `POST /store/odeme/payment-sessions/:id/form` right before calling this, so
 * the signature is never older than the service's 30-minute window.
 */
export function submitQuickCheckoutForm(form: OdemeQuickCheckoutForm, doc?: FormDocument): HTMLFormElement {
  const parsed = quickCheckoutFormSchema.safeParse(form)
  if (!parsed.success) {
    throw new TypeError(`Not a Quick Checkout form: ${zodMessage(parsed.error)}`)
  }
  const d: FormDocument | undefined = doc ?? (typeof document === "undefined" ? undefined : document)
  if (!d) throw new Error("submitQuickCheckoutForm runs in a browser (no document here)")
  const el = d.createElement("form")
  el.method = "POST"
  el.action = parsed.data.action
  el.acceptCharset = "UTF-8"
  el.style.display = "none"
  for (const [name, value] of Object.entries(parsed.data.fields)) {
    const input = d.createElement("input")
    input.type = "hidden"
    input.name = name
    input.value = value
    el.appendChild(input)
  }
  d.body.appendChild(el)
  el.submit()
  return el
}
