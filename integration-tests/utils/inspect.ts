import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { outcomeOfOrders } from "../../scripts/lib/cart-outcome"

/** Orders of a cart with their payment state, read through Medusa's query graph. */
export async function ordersOfCart(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  if (!links.length) return []
  const { data: orders } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "status",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.payments.id",
      "payment_collections.payments.captured_at",
      "payment_collections.payments.captures.id",
      "payment_collections.payments.captures.amount",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.status",
    ],
    filters: { id: links.map((l: { order_id: string }) => l.order_id) },
  })
  return orders as any[]
}

export async function paymentSession(container: MedusaContainer, id: string) {
  const payment = container.resolve(Modules.PAYMENT)
  const [session] = await payment.listPaymentSessions({ id })
  return session
}

/** The provider instance Medusa registered (for calls the 2.21 core flows never make, e.g. getPaymentStatus). */
export function paymentProvider(container: MedusaContainer, providerId: string): any {
  const payment = container.resolve(Modules.PAYMENT) as any
  return payment.paymentProviderService_.retrieveProvider(providerId)
}

export async function odemePayments(container: MedusaContainer) {
  const db = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  return db("odeme_payment").select("*")
}

/** Orders, payments and captures of a cart (scripts/lib/cart-outcome.js), through Medusa's query graph. */
export async function cartOutcome(container: MedusaContainer, cartId: string) {
  return outcomeOfOrders(await ordersOfCart(container, cartId))
}

/**
 * Medusa's stored workflow executions that have not ended, each with its steps' states and
 * errors. The test runner waits for these after every test, without a bound; a suite that
 * drives Medusa's workflows hard prints them first, so a hang names its workflow and step.
 */
export async function unfinishedWorkflows(container: MedusaContainer): Promise<string[]> {
  const engine = container.resolve(Modules.WORKFLOW_ENGINE, { allowUnregistered: true }) as any
  if (!engine) return []
  const executions = await engine.listWorkflowExecutions({ state: { $nin: ["not_started", "done", "reverted", "failed"] } })
  return executions.map((e: any) => {
    const steps = Object.entries(e.execution?.steps ?? {})
      .filter(([, s]: [string, any]) => s.invoke?.status !== "ok" || s.compensate?.state !== "not_started")
      .map(
        ([id, s]: [string, any]) => `${id} invoke ${s.invoke?.state}/${s.invoke?.status}, compensate ${s.compensate?.state}/${s.compensate?.status}`
      )
    const errors = (e.context?.errors ?? []).map((x: any) => `${x.action}: ${x.error?.message ?? JSON.stringify(x.error)}`)
    return `${e.workflow_id} ${e.transaction_id} (${e.state}); steps: ${steps.join("; ") || "all ok"}; errors: ${errors.join("; ") || "none"}`
  })
}
