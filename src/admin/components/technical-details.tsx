import { Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useTranslation } from "react-i18next"

/**
 * Raw values (ids, Medusa's statuses, the service's texts) for whoever
 * debugs, collapsed under "Technical details": a merchant reads the
 * translated lines above it and never has to.
 */
export function TechnicalDetails({ rows, testId = "odeme-technical" }: { rows: Array<[string, ReactNode | null | undefined]>; testId?: string }) {
  const { t } = useTranslation()
  const shown = rows.filter(([, v]) => v !== null && v !== undefined && v !== "")
  if (!shown.length) return null
  return (
    <details className="group" data-testid={testId}>
      <summary className="text-ui-fg-muted txt-compact-xsmall cursor-pointer select-none">{t("odeme.common.technicalDetails")}</summary>
      <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
        {shown.map(([label, value]) => (
          <div key={label} className="contents">
            <dt>
              <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
                {label}
              </Text>
            </dt>
            <dd>
              <Text size="xsmall" leading="compact" className="text-ui-fg-subtle break-all font-mono">
                {value}
              </Text>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  )
}
