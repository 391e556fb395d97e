import type { WebhookBody } from "./webhooks"

/**
 * Shapes a notification can take on the wire that spec §6.2 does not forbid:
 * it types the fields but never says the service leaves one out, sends it as
 * null or empty, spells a number as text (or text as a number), writes the
 * lira as "TL", adds fields (nested ones too, or many), or posts it as a form
 * or as JSON labelled text/plain. The verify fields (order_id, uuid, status,
 * hash) stay as they are in every shape: the payment is the same.
 */
export const WEBHOOK_SHAPES = [
  "standard",
  "nulls",
  "empty_strings",
  "numbers_as_text",
  "text_as_numbers",
  "lira_tl",
  "nested_field",
  "many_fields",
  "form",
  "text_plain_json",
] as const
export type WebhookShape = (typeof WEBHOOK_SHAPES)[number]

/** The request a notification is delivered as, in a shape. */
export function shapeDelivery(body: WebhookBody, shape: WebhookShape): { contentType: string; text: string } {
  const json = (fields: Record<string, unknown>) => ({ contentType: "application/json", text: JSON.stringify(fields) })
  switch (shape) {
    case "nulls":
      return json({ ...body, transaction_id: null, message: null })
    case "empty_strings":
      return json({ ...body, amount: "", currency: "", message: "", transaction_id: "" })
    case "numbers_as_text":
      return json({ ...body, amount: Number(body.amount).toFixed(2) })
    case "text_as_numbers":
      return json({ ...body, transaction_id: Number(String(body.transaction_id).replace(/\D/g, "") || "0") })
    case "lira_tl":
      return json({ ...body, currency: body.currency.toUpperCase() === "TRY" ? "TL" : body.currency })
    case "nested_field":
      return json({ ...body, customer: { name: "Ayşe Yılmaz", email: "ayse@example.com", address: { city: "İzmir" } } })
    case "many_fields": {
      // 41 fields in all: the nine of §6.2 and 32 the spec does not name.
      const extra = Object.fromEntries(Array.from({ length: 41 - Object.keys(body).length }, (_, i) => [`extra_${i + 1}`, `value ${i + 1}`]))
      return json({ ...body, ...extra })
    }
    case "form":
      return {
        contentType: "application/x-www-form-urlencoded",
        text: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
      }
    case "text_plain_json":
      return { contentType: "text/plain", text: JSON.stringify(body) }
    default:
      return json({ ...body })
  }
}
