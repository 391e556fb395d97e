import { Button, Drawer, Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { AdminOdemePayment } from "../lib/odeme-api"
import { ChargesList } from "./charges-list"
import { DetailRow } from "./detail-row"
import { formatTime } from "./odeme-status"
import { PaymentTimeline } from "./payment-timeline"
import { TechnicalDetails } from "./technical-details"
import { attentionTitle, flowLabel, lastCheckLabel, lastCheckText, providerLabel, sessionStatusLabel, stateLabel } from "./words"

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
            <Heading>{t("odeme.widget.drawerTitle")}</Heading>
          </Drawer.Title>
          <Drawer.Description className="sr-only">{providerLabel(t, p.provider)}</Drawer.Description>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto p-0">
          <div className="flex flex-col divide-y">
            <DetailRow label={t("odeme.widget.payment")} testId="odeme-detail-flow">
              {providerLabel(t, p.provider)} · {flowLabel(t, p)} · {stateLabel(t, p.state)}
            </DetailRow>
            <DetailRow label={t("odeme.widget.reference")} testId="odeme-detail-reference">
              {p.reference}
            </DetailRow>
            {p.medusa_session_status && (
              <DetailRow label={t("odeme.widget.medusaStatus")} testId="odeme-detail-medusa-status">
                {sessionStatusLabel(t, p.medusa_session_status)}
              </DetailRow>
            )}
            {p.account_holder && (
              <DetailRow label={t("odeme.widget.bank")} testId="odeme-detail-account-holder">
                {p.bank_name} · {p.account_holder}
              </DetailRow>
            )}
            {p.last_checked_at && (
              <DetailRow label={lastCheckLabel(t, p)} testId="odeme-last-check">
                {p.last_check
                  ? t("odeme.widget.lastCheckAt", { result: lastCheckText(t, p.last_check), at: formatTime(p.last_checked_at, i18n.language) })
                  : formatTime(p.last_checked_at, i18n.language)}
              </DetailRow>
            )}
            {p.review_code && (
              <DetailRow label={t("odeme.states.review")} testId="odeme-detail-review-reason">
                {attentionTitle(t, { code: p.review_code })}
              </DetailRow>
            )}
            <div className="px-6 py-2">
              <TechnicalDetails
                testId="odeme-detail-technical"
                rows={[
                  [t("odeme.technical.referenceShort"), p.reference],
                  [t("odeme.technical.session"), p.session_id],
                  [t("odeme.technical.serviceUuid"), p.service_uuid],
                  [t("odeme.technical.state"), p.state],
                  [t("odeme.technical.medusaStatus"), p.medusa_session_status],
                  [t("odeme.technical.lastResult"), p.last_result],
                  [t("odeme.technical.checkAttempts"), String(p.check_attempts)],
                  [t("odeme.technical.reviewReason"), p.review_reason],
                ]}
              />
            </div>
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
