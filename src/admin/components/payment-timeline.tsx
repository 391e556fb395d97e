import { Badge, Table, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { TimelineEvent } from "../lib/odeme-api"
import { formatTime, kindColor } from "./odeme-status"
import { TechnicalDetails } from "./technical-details"
import { timelineText } from "./words"

/** The notification timeline: received → verified → result, duplicates and errors; the technical text as it came stays collapsed. */
export function PaymentTimeline({ events }: { events: TimelineEvent[] }) {
  const { t, i18n } = useTranslation()
  if (events.length === 0) {
    return (
      <Text size="small" className="text-ui-fg-muted" data-testid="odeme-timeline-empty">
        {t("odeme.widget.noTimeline")}
      </Text>
    )
  }
  return (
    <Table data-testid="odeme-timeline">
      <Table.Header>
        <Table.Row>
          <Table.HeaderCell>{t("odeme.timeline.time")}</Table.HeaderCell>
          <Table.HeaderCell>{t("odeme.timeline.event")}</Table.HeaderCell>
          <Table.HeaderCell>{t("odeme.timeline.text")}</Table.HeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {events.map((e, i) => (
          <Table.Row key={`${e.at}-${e.code}-${i}`} data-testid="odeme-timeline-event" data-kind={e.kind} data-code={e.code} data-source={e.source}>
            <Table.Cell className="whitespace-nowrap align-top">{formatTime(e.at, i18n.language)}</Table.Cell>
            <Table.Cell className="align-top">
              <Badge size="2xsmall" color={kindColor(e.kind)}>
                {t(`odeme.timeline.kinds.${e.kind}`, { defaultValue: e.kind })}
              </Badge>
              <div className="text-ui-fg-muted txt-compact-xsmall">{t(`odeme.timeline.sources.${e.source}`, { defaultValue: e.source })}</div>
            </Table.Cell>
            <Table.Cell className="whitespace-normal align-top">
              {timelineText(t, e)}
              {e.detail && <TechnicalDetails testId="odeme-timeline-technical" rows={[[t("odeme.technical.detail"), e.detail]]} />}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table>
  )
}
