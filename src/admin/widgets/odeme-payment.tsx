import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, StatusBadge, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import { AttentionItems } from "../components/attention-items"
import { ChargesList } from "../components/charges-list"
import { DetailRow } from "../components/detail-row"
import { formatMoney, formatTime, stateColor } from "../components/odeme-status"
import { PaymentDetailsDrawer } from "../components/payment-details"
import { checkToast, collectionStatusLabel, errorText, flowLabel, lastCheckText, providerLabel, stateLabel } from "../components/words"
import type { AdminOrderCollection, AdminOrderPayment, CheckResult } from "../lib/odeme-api"
import { useCheckPayment, useOrderPayments } from "../lib/queries"

/**
 * Order details, side column: the order's payments through Odeme in a few
 * lines (provider, state, amount, the transfer's IBAN and tracking number),
 * what needs attention and what to do, refunds to pay back in the merchant
 * panel, Ask Odeme now, and the rest in a details drawer. Renders nothing for
 * orders paid otherwise.
 */
const OdemePaymentWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { t } = useTranslation()
  const { data, error } = useOrderPayments(order.id)

  if (error && !data) {
    return (
      <Container className="divide-y p-0" data-testid="odeme-payment-widget">
        <div className="px-6 py-4">
          <Heading level="h2">{t("odeme.widget.title")}</Heading>
        </div>
        <div className="px-6 py-4">
          <Text size="small" className="text-ui-fg-error" data-testid="odeme-error">
            {t("odeme.common.loadError", { message: errorText(t, error) })}
          </Text>
        </div>
      </Container>
    )
  }
  if (!data || data.payments.length === 0) return null

  const collections = data.collections ?? []
  const byId = new Map(collections.map((c) => [c.id, c]))
  return (
    <div className="flex flex-col gap-y-3" data-testid="odeme-payment-widget">
      {collections.length > 1 && <OrderCollections collections={collections} />}
      {data.payments.map((p) => (
        <PaymentCard
          key={p.session_id}
          payment={p}
          refunds={manualRefundsOf(order, p.session_id)}
          collection={collections.length > 1 && p.payment_collection_id ? byId.get(p.payment_collection_id) : undefined}
        />
      ))}
    </div>
  )
}

/**
 * An edited order (order edit, exchange, claim) can owe more than it was paid:
 * each payment collection (the checkout's and each balance paid through
 * Admin's payment link) with what it asks for and Medusa's state of it.
 */
function OrderCollections({ collections }: { collections: AdminOrderCollection[] }) {
  const { t, i18n } = useTranslation()
  return (
    <Container className="divide-y p-0" data-testid="odeme-collections">
      <div className="px-6 py-4">
        <Heading level="h2">{t("odeme.widget.collectionsTitle")}</Heading>
      </div>
      <div className="flex flex-col py-2">
        {collections.map((c) => (
          <div
            key={c.id}
            className="flex items-center justify-between gap-x-2 px-6 py-2"
            data-testid="odeme-collection"
            data-kind={c.kind}
            data-status={c.status}
          >
            <div className="flex min-w-0 flex-col">
              <Text size="small" weight="plus" leading="compact">
                {t(`odeme.widget.collection.${c.kind}`)}
              </Text>
              <Text size="xsmall" leading="compact" className="text-ui-fg-subtle">
                {formatMoney(c.amount, c.currency, i18n.language)}
                {c.session_ids.length === 0 && <> · {t("odeme.widget.collectionNoOdeme")}</>}
              </Text>
            </div>
            <StatusBadge color={collectionColor(c.status)} data-testid="odeme-collection-status">
              {collectionStatusLabel(t, c.status)}
            </StatusBadge>
          </div>
        ))}
      </div>
    </Container>
  )
}

function collectionColor(status: string): "green" | "orange" | "red" | "grey" | "blue" {
  if (status === "completed") return "green"
  if (status === "failed" || status === "canceled") return "red"
  if (status === "authorized" || status === "partially_captured") return "blue"
  if (status === "refunded" || status === "partially_refunded") return "grey"
  return "orange"
}

interface ManualRefund {
  amount: string
  currency: string
}

/**
 * Refunds Medusa recorded on this payment. The service has no refund API, so
 * each one is money the merchant still pays back in the merchant panel
 * (the provider keeps them in the payment's data as `manual_refunds`).
 */
function manualRefundsOf(order: AdminOrder, sessionId: string): ManualRefund[] {
  type LoosePayment = {
    payment_session_id?: string | null
    currency_code?: string
    data?: { manual_refunds?: Array<{ amount?: unknown }> } | null
    refunds?: Array<{ amount?: unknown }> | null
  }
  const payments = (order.payment_collections ?? []).flatMap((pc) => (pc?.payments ?? []) as unknown as LoosePayment[])
  const payment = payments.find((p) => p.payment_session_id === sessionId)
  if (!payment) return []
  const recorded = payment.data?.manual_refunds ?? payment.refunds ?? []
  return recorded
    .filter((r) => r && r.amount !== undefined)
    .map((r) => ({ amount: String(r.amount), currency: (payment.currency_code ?? "").toUpperCase() }))
}

function PaymentCard({
  payment: p,
  refunds,
  collection,
}: {
  payment: AdminOrderPayment
  refunds: ManualRefund[]
  collection?: AdminOrderCollection
}) {
  const { t, i18n } = useTranslation()
  const check = useCheckPayment()
  const money = (amount: string | null, currency: string | null) => formatMoney(amount, currency, i18n.language)

  // What the check found stays on the card; the toast only names it.
  const [checked, setChecked] = useState<CheckResult | null>(null)
  const checkNow = () =>
    check.mutate(p.session_id, {
      onSuccess: (r) => {
        const shown = checkToast(t, r)
        setChecked(r)
        toast[shown.kind](shown.title)
      },
      onError: (e) => toast.error(t("odeme.widget.toast.failedTitle"), { description: errorText(t, e) }),
    })

  const chargedCurrency = p.charged_currency ?? p.currency
  const chargedDiffers =
    !!p.charged_amount && (Number(p.charged_amount) !== Number(p.amount) || chargedCurrency.toUpperCase() !== p.currency.toUpperCase())
  const attention = p.attention ?? []
  const showCharges = (p.charges ?? []).some((c) => c.role !== "primary" && c.role !== "none") || (p.charges ?? []).length > 1

  return (
    <Container className="divide-y p-0" data-testid="odeme-payment" data-session-id={p.session_id} data-state={p.state}>
      <div className="flex flex-col gap-y-2 px-6 py-4">
        <div className="flex items-center justify-between gap-x-2">
          <div className="flex min-w-0 items-center gap-x-2">
            <Heading level="h2" data-testid="odeme-provider">
              {providerLabel(t, p.provider)}
            </Heading>
            {p.sandbox && (
              <Badge size="2xsmall" color="orange" data-testid="odeme-sandbox-badge">
                {t("odeme.common.sandbox")}
              </Badge>
            )}
          </div>
          <PaymentDetailsDrawer payment={p} />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Text size="small" className="text-ui-fg-subtle" data-testid="odeme-flow">
            {flowLabel(t, p)}
          </Text>
          <StatusBadge color={stateColor(p.state)} data-testid="odeme-status-badge" data-state={p.state}>
            {stateLabel(t, p.state)}
          </StatusBadge>
        </div>
      </div>

      {collection && (
        <div className="px-6 py-2">
          <Text size="xsmall" leading="compact" className="text-ui-fg-subtle" data-testid="odeme-pays">
            {t("odeme.widget.pays", { what: t(`odeme.widget.collection.${collection.kind}`) })}
          </Text>
        </div>
      )}

      {p.last_check?.failed && (p.state === "awaiting_transfer" || p.state === "unknown" || p.state === "pending") && (
        <div className="flex flex-col gap-y-1 px-6 py-3" data-testid="odeme-check-failing" data-code={p.last_check.code}>
          <Text size="small" leading="compact" className="text-ui-fg-error">
            {t("odeme.widget.checkFailing", { reason: lastCheckText(t, p.last_check) })}
          </Text>
          {p.last_checked_at && (
            <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
              {t("odeme.widget.checkFailingSince", { at: formatTime(p.last_checked_at, i18n.language) })}
            </Text>
          )}
        </div>
      )}

      <div className="flex flex-col py-2">
        <DetailRow label={t("odeme.widget.amount")} testId="odeme-amount">
          {p.charged_amount ? money(p.charged_amount, chargedCurrency) : money(p.amount, p.currency)}
          {chargedDiffers && <span className="text-ui-fg-muted"> ({t("odeme.widget.orderAmount", { amount: money(p.amount, p.currency) })})</span>}
        </DetailRow>
        {p.tracking_no && (
          <DetailRow label={t("odeme.widget.trackingNo")} testId="odeme-tracking-no" copy={p.tracking_no}>
            {p.tracking_no}
          </DetailRow>
        )}
        {p.payer_name && (
          <DetailRow label={t("odeme.widget.payer")} testId="odeme-payer-name">
            {p.payer_name}
          </DetailRow>
        )}
        {p.bank_name && (
          <DetailRow label={t("odeme.widget.bank")} testId="odeme-bank-name">
            {p.bank_name}
          </DetailRow>
        )}
        {p.iban_display && (
          <DetailRow label={t("odeme.widget.iban")} testId="odeme-iban" copy={p.iban_display.replace(/\s+/g, "")}>
            <span className="font-mono">{p.iban_display}</span>
          </DetailRow>
        )}
      </div>

      {attention.length > 0 && (
        <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="odeme-attention">
          <Text size="small" weight="plus" className="text-ui-fg-error">
            {t("odeme.widget.needsAttention")}
          </Text>
          <AttentionItems items={attention} compact />
          <Link to="/settings/odeme" className="text-ui-fg-interactive txt-compact-small" data-testid="odeme-open-settings">
            {t("odeme.widget.openSettings")}
          </Link>
        </div>
      )}

      {showCharges && (
        <div className="flex flex-col gap-y-2 px-6 py-4">
          <Text size="small" weight="plus">
            {t("odeme.widget.charges")}
          </Text>
          <ChargesList charges={p.charges ?? []} />
        </div>
      )}

      {refunds.length > 0 && (
        <div className="flex flex-col gap-y-1 px-6 py-4" data-testid="odeme-manual-refunds">
          <Text size="small" weight="plus">
            {t("odeme.widget.refunds")}
          </Text>
          {refunds.map((r, i) => (
            <Text key={i} size="small" leading="compact" className="text-ui-fg-subtle" data-testid="odeme-manual-refund">
              {t("odeme.widget.manualRefund", { amount: money(r.amount, r.currency || p.currency) })}
            </Text>
          ))}
          <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
            {t("odeme.widget.manualRefundHint")}
          </Text>
        </div>
      )}

      <div className="flex items-center justify-between gap-x-3 px-6 py-4">
        <Text size="xsmall" leading="compact" className="text-ui-fg-muted" data-testid="odeme-check-now-hint">
          {t("odeme.widget.checkNowHint")}
        </Text>
        <Button
          className="shrink-0"
          size="small"
          variant="secondary"
          onClick={checkNow}
          isLoading={check.isPending}
          disabled={check.isPending}
          data-testid="odeme-check-now"
        >
          {t("odeme.widget.checkNow")}
        </Button>
      </div>
      {checked && (
        <div className="px-6 py-3">
          <Text size="small" leading="compact" data-testid="odeme-check-result" data-code={checked.code}>
            {checkToast(t, checked).description}
          </Text>
        </div>
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side.before",
})

export default OdemePaymentWidget
