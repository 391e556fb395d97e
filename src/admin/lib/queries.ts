import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query"
import { odemeApi } from "./odeme-api"

/**
 * react-query hooks over the plugin's admin API. They run in the dashboard's
 * own QueryClient, so invalidating Medusa's keys ("orders", "payment")
 * refreshes the order page the widget sits on.
 */
export const odemeKeys = {
  all: ["odeme"] as const,
  orderPayments: (orderId: string) => ["odeme", "order-payments", orderId] as const,
  attention: (page: { limit: number; offset: number }) => ["odeme", "attention", page] as const,
  settings: () => ["odeme", "settings"] as const,
}

/** After anything that can move a payment: the plugin's views and Medusa's order/payment views. */
export async function refreshAfterPaymentChange(client: QueryClient) {
  await Promise.all([
    client.invalidateQueries({ queryKey: odemeKeys.all }),
    client.invalidateQueries({ queryKey: ["orders"] }),
    client.invalidateQueries({ queryKey: ["payment"] }),
    client.invalidateQueries({ queryKey: ["payment-collection"] }),
  ])
}

export function useOrderPayments(orderId: string) {
  return useQuery({ queryKey: odemeKeys.orderPayments(orderId), queryFn: () => odemeApi.orderPayments(orderId) })
}

export function useAttention(page: { limit: number; offset: number }) {
  return useQuery({ queryKey: odemeKeys.attention(page), queryFn: () => odemeApi.attention(page) })
}

export function useOdemeSettings() {
  return useQuery({ queryKey: odemeKeys.settings(), queryFn: () => odemeApi.settings() })
}

export function useCheckPayment() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (sessionId: string) => odemeApi.checkPayment(sessionId),
    onSettled: () => refreshAfterPaymentChange(client),
  })
}

export function useTestConnection() {
  return useMutation({ mutationFn: () => odemeApi.testConnection() })
}

/** The action of a "needs attention" item: Ask Odeme now, Retry, Mark refunded (a charge or a refund), Mark resolved (with a note). */
export function useAttentionAction(action: "check" | "retry" | "acknowledge" | "resolve") {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, kind, note }: { id: string; kind?: "charge" | "refund"; note?: string }): Promise<unknown> =>
      action === "check"
        ? odemeApi.checkPayment(id)
        : action === "retry"
          ? odemeApi.retryNotification(id)
          : action === "resolve"
            ? odemeApi.resolvePayment(id, note ?? "")
            : kind === "refund"
              ? odemeApi.acknowledgeRefund(id)
              : odemeApi.acknowledgeCharge(id),
    onSettled: () => refreshAfterPaymentChange(client),
  })
}
