import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Copy, Heading, StatusBadge, Table, Text, toast } from "@medusajs/ui"
import { useCallback, useEffect, useState, type ReactNode } from "react"
import { KIND_LABELS, PROVIDER_LABELS, formatMoney, formatTime, kindColor, stateColor } from "../components/odeme-status"
import { checkPaymentNow, fetchOrderPayments, type AdminOdemePayment, type CheckResult } from "../lib/odeme-api"

/**
 * Order details → the order's payments through the Odeme plugin: provider
 * and flow, status in words, what was charged, the transfer's details, the
 * notification timeline and a "Check now" button. Renders nothing for
 * orders paid otherwise.
 */
const OdemePaymentWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const [payments, setPayments] = useState<AdminOdemePayment[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      const res = await fetchOrderPayments(order.id)
      setPayments(res.payments)
      setError(null)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }, [order.id])

  useEffect(() => {
    void load()
  }, [load])

  if (error && !payments) {
    return (
      <Container className="divide-y p-0" data-testid="odeme-payment-widget">
        <div className="px-6 py-4">
          <Heading level="h2">Odeme payment</Heading>
        </div>
        <div className="px-6 py-4">
          <Text size="small" className="text-ui-fg-error" data-testid="odeme-error">
            Could not load the Odeme payment: {error}
          </Text>
        </div>
      </Container>
    )
  }
  if (!payments || payments.length === 0) return null

  return (
    <div className="flex flex-col gap-y-3" data-testid="odeme-payment-widget">
      {payments.map((p) => (
        <PaymentCard key={p.session_id} payment={p} onChecked={load} />
      ))}
    </div>
  )
}

function PaymentCard({ payment: p, onChecked }: { payment: AdminOdemePayment; onChecked: () => Promise<void> }) {
  const [checking, setChecking] = useState(false)
  const [result, setResult] = useState<CheckResult | null>(null)

  const checkNow = async () => {
    setChecking(true)
    try {
      const r = await checkPaymentNow(p.session_id)
      setResult(r)
      await onChecked()
      if (r.changed) {
        toast.success("Payment updated", { description: `${r.status_text ?? r.state}. Reload the page to see the order's payment status.` })
      } else {
        toast.info("Nothing changed", { description: r.detail })
      }
    } catch (e) {
      toast.error("Check failed", { description: e instanceof Error ? e.message : String(e) })
    } finally {
      setChecking(false)
    }
  }

  const charged = p.charged_amount ? formatMoney(p.charged_amount, p.charged_currency ?? p.currency) : formatMoney(p.amount, p.currency)
  const chargedDiffers =
    !!p.charged_amount &&
    (Number(p.charged_amount) !== Number(p.amount) || (p.charged_currency ?? p.currency).toUpperCase() !== p.currency.toUpperCase())

  return (
    <Container className="divide-y p-0" data-testid="odeme-payment" data-session-id={p.session_id} data-state={p.state}>
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div className="flex flex-col gap-y-1">
          <div className="flex items-center gap-x-2">
            <Heading level="h2" data-testid="odeme-provider">
              {PROVIDER_LABELS[p.provider] ?? p.provider}
            </Heading>
            {p.sandbox && (
              <Badge size="2xsmall" color="orange" data-testid="odeme-sandbox-badge">
                Sandbox
              </Badge>
            )}
          </div>
          <Text size="small" className="text-ui-fg-subtle" data-testid="odeme-flow">
            {p.flow_label}
          </Text>
        </div>
        <div className="flex items-center gap-x-3">
          <StatusBadge color={stateColor(p.state)} data-testid="odeme-status-badge" data-state={p.state}>
            {p.status_text}
          </StatusBadge>
          <Button size="small" variant="secondary" onClick={checkNow} isLoading={checking} disabled={checking} data-testid="odeme-check-now">
            Check now
          </Button>
        </div>
      </div>

      <Row label="Amount" testId="odeme-amount">
        {charged}
        {chargedDiffers && <span className="text-ui-fg-muted"> (order: {formatMoney(p.amount, p.currency)})</span>}
      </Row>
      {p.tracking_no && (
        <Row label="Tracking number" testId="odeme-tracking-no" copy={p.tracking_no}>
          {p.tracking_no}
        </Row>
      )}
      {p.payer_name && (
        <Row label="Payer" testId="odeme-payer-name">
          {p.payer_name}
        </Row>
      )}
      {p.bank_name && (
        <Row label="Bank" testId="odeme-bank-name">
          {p.bank_name}
          {p.account_holder && <span className="text-ui-fg-muted"> · {p.account_holder}</span>}
        </Row>
      )}
      {p.iban_display && (
        <Row label="IBAN" testId="odeme-iban" copy={p.iban_display.replace(/\s+/g, "")}>
          <span className="font-mono">{p.iban_display}</span>
        </Row>
      )}
      <Row label="Reference" testId="odeme-reference" copy={p.session_id}>
        <span className="font-mono">{p.session_id}</span>
      </Row>
      {p.last_checked_at && (
        <Row label="Last check" testId="odeme-last-check">
          {formatTime(p.last_checked_at)}
          {p.last_result && <span className="text-ui-fg-muted"> · {p.last_result}</span>}
        </Row>
      )}
      {result && (
        <div className="px-6 py-3" data-testid="odeme-check-result" data-changed={String(result.changed)}>
          <Text size="small" className="text-ui-fg-subtle">
            Check now: {result.status_text ?? result.state} — {result.detail}
          </Text>
        </div>
      )}

      <div className="px-6 py-4" data-testid="odeme-timeline">
        <Text size="small" weight="plus" className="mb-2">
          Notifications
        </Text>
        {p.timeline.length === 0 ? (
          <Text size="small" className="text-ui-fg-muted" data-testid="odeme-timeline-empty">
            No notification from the payment service yet.
          </Text>
        ) : (
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Time</Table.HeaderCell>
                <Table.HeaderCell>Event</Table.HeaderCell>
                <Table.HeaderCell>Source</Table.HeaderCell>
                <Table.HeaderCell>Details</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {p.timeline.map((e, i) => (
                <Table.Row key={`${e.at}-${e.kind}-${i}`} data-testid="odeme-timeline-event" data-kind={e.kind}>
                  <Table.Cell className="whitespace-nowrap">{formatTime(e.at)}</Table.Cell>
                  <Table.Cell>
                    <Badge size="2xsmall" color={kindColor(e.kind)}>
                      {KIND_LABELS[e.kind] ?? e.kind}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell>{e.source}</Table.Cell>
                  <Table.Cell className="whitespace-normal">{e.text}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        )}
      </div>
    </Container>
  )
}

function Row({ label, testId, copy, children }: { label: string; testId: string; copy?: string; children: ReactNode }) {
  return (
    <div className="text-ui-fg-subtle grid grid-cols-2 items-center px-6 py-4">
      <Text size="small" weight="plus" leading="compact">
        {label}
      </Text>
      <div className="flex items-center gap-x-1">
        <Text size="small" leading="compact" data-testid={testId}>
          {children}
        </Text>
        {copy && <Copy content={copy} className="text-ui-fg-muted" />}
      </div>
    </div>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.after",
})

export default OdemePaymentWidget
