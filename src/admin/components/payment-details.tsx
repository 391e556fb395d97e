import { Button, Drawer, Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { AdminOdemePayment } from "../lib/odeme-api"
import { ChargesList } from "./charges-list"
import { DetailRow } from "./detail-row"
import { formatTime } from "./odeme-status"
import { PaymentTimeline } from "./payment-timeline"
import { flowLabel, providerLabel, stateLabel } from "./words"

/** Everything about one payment, in a drawer, so the widget in the side column stays short. */
export function PaymentDetailsDrawer({ payment: p }: { payment: AdminOdemePayment }) {
  const { t, i18n } = useTranslation()
  return (
    <Drawer>
      <Drawer.Trigger asChild>
        <Button size="small" variant="transparent" data-testid="odeme-details-open">
          {t("odeme.common.details")}
        </Button>
      </Drawer.Trigger>
      <Drawer.Content data-testid="odeme-details">
        <Drawer.Header>
          <Drawer.Title asChild>
            <Heading>{t("odeme.widget.drawerTitle", { reference: p.session_id })}</Heading>
          </Drawer.Title>
          <Drawer.Description className="sr-only">{providerLabel(t, p.provider)}</Drawer.Description>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto p-0">
          <div className="flex flex-col divide-y">
            <DetailRow label={t("odeme.widget.reference")} testId="odeme-detail-reference" copy={p.session_id}>
              <span className="font-mono">{p.session_id}</span>
            </DetailRow>
            <DetailRow label={t("odeme.settings.mode")} testId="odeme-detail-flow">
              {providerLabel(t, p.provider)} · {flowLabel(t, p)} · {stateLabel(t, p.state)}
            </DetailRow>
            {p.service_uuid && (
              <DetailRow label={t("odeme.widget.serviceUuid")} testId="odeme-detail-uuid" copy={p.service_uuid}>
                <span className="font-mono">{p.service_uuid}</span>
              </DetailRow>
            )}
            {p.medusa_session_status && (
              <DetailRow label={t("odeme.widget.medusaStatus")} testId="odeme-detail-medusa-status">
                <span className="font-mono">{p.medusa_session_status}</span>
              </DetailRow>
            )}
            {p.account_holder && (
              <DetailRow label={t("odeme.widget.bank")} testId="odeme-detail-account-holder">
                {p.bank_name} · {p.account_holder}
              </DetailRow>
            )}
            {p.last_checked_at && (
              <DetailRow label={t("odeme.widget.lastCheck")} testId="odeme-last-check">
                {formatTime(p.last_checked_at, i18n.language)}
                {p.last_result && <span className="text-ui-fg-muted"> · {p.last_result}</span>}
              </DetailRow>
            )}
            {p.review_reason && (
              <DetailRow label={t("odeme.common.technicalDetail")} testId="odeme-detail-review-reason">
                {p.review_reason}
              </DetailRow>
            )}
          </div>
          {p.charges && p.charges.length > 0 && (
            <div className="flex flex-col gap-y-2 px-6">
              <Text size="small" weight="plus">
                {t("odeme.widget.charges")}
              </Text>
              <ChargesList charges={p.charges} />
            </div>
          )}
          <div className="flex flex-col gap-y-2 px-6 pb-6">
            <Text size="small" weight="plus">
              {t("odeme.widget.timeline")}
            </Text>
            <PaymentTimeline events={p.timeline} />
          </div>
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              {t("odeme.common.close")}
            </Button>
          </Drawer.Close>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  )
}
