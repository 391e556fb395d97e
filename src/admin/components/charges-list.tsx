import { Badge, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { AdminCharge } from "../lib/odeme-api"
import { formatMoney, formatTime, type BadgeColor } from "./odeme-status"
import { TechnicalDetails } from "./technical-details"
import { chargeStatusLabel } from "./words"

const ROLE_COLORS: Record<string, BadgeColor> = { primary: "green", duplicate: "red", late: "purple", rejected: "orange", none: "grey" }

/** Every payment the service reported for the session: which one paid, which one needs a refund. */
export function ChargesList({ charges }: { charges: AdminCharge[] }) {
  const { t, i18n } = useTranslation()
  return (
    <ul className="flex flex-col gap-y-1" data-testid="odeme-charges">
      {charges.map((c) => (
        <li key={c.id} className="flex flex-col gap-y-0.5" data-testid="odeme-charge" data-role={c.role}>
          <div className="flex flex-wrap items-center gap-x-2">
            <Badge size="2xsmall" color={ROLE_COLORS[c.role] ?? "grey"}>
              {t(`odeme.charges.roles.${c.role}`, { defaultValue: t("odeme.charges.roles.other", { role: c.role }) })}
            </Badge>
            <Text size="xsmall" leading="compact" className="text-ui-fg-subtle">
              {formatMoney(c.amount, c.currency, i18n.language)} · {chargeStatusLabel(t, c.status)}
            </Text>
            {c.acknowledged_at && (
              <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
                {t("odeme.charges.acknowledged", { at: formatTime(c.acknowledged_at, i18n.language) })}
              </Text>
            )}
          </div>
          {/* The service's id of the payment, for the merchant panel: technical, so folded. */}
          <TechnicalDetails testId="odeme-charge-technical" rows={[[t("odeme.technical.serviceUuid"), c.service_uuid]]} />
        </li>
      ))}
    </ul>
  )
}
