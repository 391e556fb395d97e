import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CreditCard } from "@medusajs/icons"
import { Badge, Button, Container, Copy, Heading, InlineTip, StatusBadge, Text } from "@medusajs/ui"
import { useState } from "react"
import { useTranslation } from "react-i18next"
import { AttentionItems } from "../../../components/attention-items"
import { DetailRow } from "../../../components/detail-row"
import { formatTime } from "../../../components/odeme-status"
import { connectionText, errorText, modeLabel } from "../../../components/words"
import type { ConnectionResult } from "../../../lib/odeme-api"
import { useAttention, useOdemeSettings, useTestConnection } from "../../../lib/queries"

/**
 * Settings → Odeme: the configuration as the merchant panel needs it, the
 * connection test and every payment that needs a person.
 */
const OdemeSettingsPage = () => {
  return (
    <div className="flex flex-col gap-y-3" data-testid="odeme-settings">
      <ConfigurationSection />
      <ConnectionSection />
      <AttentionSection />
    </div>
  )
}

const WARNING_VARIANT = { error: "error", warning: "warning", info: "info" } as const

function ConfigurationSection() {
  const { t, i18n } = useTranslation()
  const { data, error, isLoading } = useOdemeSettings()
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">{t("odeme.settings.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {t("odeme.settings.subtitle")}
          </Text>
        </div>
        {data && (
          <Badge color={data.sandbox ? "orange" : "green"} data-testid="odeme-mode-badge" data-mode={data.mode}>
            {modeLabel(t, data.mode)}
          </Badge>
        )}
      </div>
      {isLoading && (
        <Text size="small" className="px-6 py-4 text-ui-fg-muted">
          {t("odeme.common.loading")}
        </Text>
      )}
      {error && (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">
          {t("odeme.common.loadError", { message: errorText(t, error) })}
        </Text>
      )}
      {data && (
        <>
          <div className="flex flex-col py-2">
            <DetailRow label={t("odeme.settings.mode")} testId="odeme-mode">
              {modeLabel(t, data.mode)}
            </DetailRow>
            <DetailRow label={t("odeme.settings.apiId")} testId="odeme-api-id">
              {data.api_id}
            </DetailRow>
            <DetailRow label={t("odeme.settings.baseUrl")} testId="odeme-base-url">
              {data.base_url}
            </DetailRow>
            <DetailRow label={t("odeme.settings.refunds")} testId="odeme-refunds">
              {data.refunds === "manual" ? t("odeme.settings.refundsManual") : t("odeme.settings.refundsReject")}
            </DetailRow>
            {data.checkout_description && (
              <DetailRow label={t("odeme.settings.description")} testId="odeme-description">
                {data.checkout_description}
              </DetailRow>
            )}
          </div>
          <div className="flex flex-col gap-y-1 px-6 py-4">
            <Text size="small" weight="plus">
              {t("odeme.settings.webhookUrl")}
            </Text>
            <div className="flex items-center gap-x-2">
              <code className="bg-ui-bg-subtle txt-compact-small rounded px-2 py-1" data-testid="odeme-webhook-url">
                {data.webhook_url}
              </code>
              <Copy content={data.webhook_url} data-testid="odeme-webhook-copy" />
            </div>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {t("odeme.settings.webhookHint")}
            </Text>
            <Text size="xsmall" className="text-ui-fg-muted pt-2">
              {t("odeme.settings.returnUrls")}: <span className="font-mono">{data.return_urls.join(", ")}</span>
            </Text>
            <Text size="xsmall" className="text-ui-fg-muted">
              {t("odeme.settings.storefrontOrigins")}: <span className="font-mono">{data.storefront_origins.join(", ")}</span>
            </Text>
          </div>
          {data.webhook_health && (
            <div className="flex flex-col gap-y-1 px-6 py-4" data-testid="odeme-webhook-health">
              <Text size="small" weight="plus">
                {t("odeme.settings.health.title")}
              </Text>
              <DetailRow label={t("odeme.settings.health.last")} testId="odeme-health-last">
                {data.webhook_health.last_webhook_at
                  ? formatTime(data.webhook_health.last_webhook_at, i18n.language)
                  : t("odeme.settings.health.never")}
              </DetailRow>
              <DetailRow label={t("odeme.settings.health.count24h")} testId="odeme-health-24h">
                {data.webhook_health.webhooks_24h}
              </DetailRow>
              <DetailRow label={t("odeme.settings.health.unconfirmed")} testId="odeme-health-unconfirmed">
                {data.webhook_health.unconfirmed_returns}
              </DetailRow>
              <DetailRow label={t("odeme.settings.health.strays")} testId="odeme-health-strays">
                {data.webhook_health.strays?.count && data.webhook_health.strays.last_at
                  ? t("odeme.settings.health.straysLast", {
                      count: data.webhook_health.strays.count,
                      at: formatTime(data.webhook_health.strays.last_at, i18n.language),
                    })
                  : 0}
              </DetailRow>
            </div>
          )}
          <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="odeme-warnings">
            <Text size="small" weight="plus">
              {t("odeme.settings.warnings.title")}
            </Text>
            {data.warnings.length === 0 && (
              <Text size="small" className="text-ui-fg-muted">
                {t("odeme.settings.warnings.none")}
              </Text>
            )}
            {data.warnings.map((w) => (
              <InlineTip
                key={w.code}
                variant={WARNING_VARIANT[w.severity]}
                label={t(`odeme.settings.severity.${w.severity}`)}
                data-testid="odeme-warning"
                data-code={w.code}
                data-severity={w.severity}
              >
                {t(`odeme.settings.warnings.${w.code}`, { ...withTimes(w.params, i18n.language), defaultValue: w.code })}
              </InlineTip>
            ))}
          </div>
        </>
      )}
    </Container>
  )
}

const CHECK_COLORS = { ok: "green", failed: "red", warning: "orange", skipped: "grey" } as const

/** A warning's times (`since`, `last`) as the admin user reads times; the server sends them as ISO text. */
function withTimes(params: Record<string, string>, language: string): Record<string, string> {
  const out = { ...params }
  for (const key of ["since", "last"]) if (out[key]) out[key] = formatTime(out[key], language)
  return out
}

function ConnectionSection() {
  const { t, i18n } = useTranslation()
  const test = useTestConnection()
  const [result, setResult] = useState<ConnectionResult | null>(null)
  const run = () => test.mutate(undefined, { onSuccess: setResult })
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">{t("odeme.connection.title")}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {t("odeme.connection.hint")}
          </Text>
        </div>
        <Button
          size="small"
          variant="secondary"
          onClick={run}
          isLoading={test.isPending}
          disabled={test.isPending}
          data-testid="odeme-test-connection"
        >
          {t("odeme.connection.button")}
        </Button>
      </div>
      {test.error && (
        <Text size="small" className="px-6 py-4 text-ui-fg-error">
          {t("odeme.common.loadError", { message: errorText(t, test.error) })}
        </Text>
      )}
      {result && (
        <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="odeme-connection-result" data-ok={String(result.ok)} data-code={result.code}>
          <div className="flex items-center justify-between">
            <Text size="small" weight="plus" className={result.ok ? "text-ui-fg-base" : "text-ui-fg-error"}>
              {result.ok ? t("odeme.connection.ok") : t("odeme.connection.failed")}
            </Text>
            <Text size="xsmall" className="text-ui-fg-muted">
              {t("odeme.connection.testedAt", { at: formatTime(result.tested_at, i18n.language) })}
            </Text>
          </div>
          <ul className="flex flex-col gap-y-2">
            {result.checks.map((c) => (
              <li
                key={c.check}
                className="flex flex-col gap-y-1"
                data-testid="odeme-connection-check"
                data-check={c.check}
                data-status={c.status}
                data-code={c.code}
              >
                <div className="flex flex-wrap items-center gap-x-2">
                  <StatusBadge color={CHECK_COLORS[c.status]}>{t(`odeme.connection.checks.${c.check}`)}</StatusBadge>
                  <Text size="small" leading="compact">
                    {[t(`odeme.connection.statuses.${c.status}`), connectionText(t, c)].filter(Boolean).join(": ")}
                  </Text>
                </div>
                <div className="flex flex-col">
                  {c.detail && (
                    <Text size="xsmall" leading="compact" className="text-ui-fg-muted break-all">
                      {t("odeme.common.technicalDetail")}: {c.detail}
                    </Text>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Container>
  )
}

const PAGE_SIZE = 20

function AttentionSection() {
  const { t } = useTranslation()
  const [offset, setOffset] = useState(0)
  const { data, error, isLoading } = useAttention({ limit: PAGE_SIZE, offset })
  const total = data?.counts.total ?? 0
  return (
    <Container className="divide-y p-0" data-testid="odeme-attention-section">
      <div className="flex items-center gap-x-2 px-6 py-4">
        <Heading level="h2">{t("odeme.attention.title")}</Heading>
        <Badge size="2xsmall" color={total > 0 ? "red" : "grey"} data-testid="odeme-attention-count">
          {total}
        </Badge>
        {data &&
          (["review", "duplicate_charge", "unknown_outcome", "dead_notification"] as const)
            .filter((k) => data.counts[k] > 0)
            .map((k) => (
              <Badge key={k} size="2xsmall" color="grey" data-testid={`odeme-attention-count-${k}`}>
                {t(`odeme.attention.kinds.${k}`)}: {data.counts[k]}
              </Badge>
            ))}
      </div>
      <div className="px-6 py-4">
        {isLoading && (
          <Text size="small" className="text-ui-fg-muted">
            {t("odeme.common.loading")}
          </Text>
        )}
        {error && (
          <Text size="small" className="text-ui-fg-error" data-testid="odeme-attention-error">
            {t("odeme.common.loadError", { message: errorText(t, error) })}
          </Text>
        )}
        {data && data.items.length === 0 && (
          <Text size="small" className="text-ui-fg-muted" data-testid="odeme-attention-empty">
            {t("odeme.attention.empty")}
          </Text>
        )}
        {data && data.items.length > 0 && <AttentionItems items={data.items} />}
      </div>
      {data && data.count > PAGE_SIZE && (
        <div className="flex items-center justify-end gap-x-2 px-6 py-3">
          <Button size="small" variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            ‹
          </Button>
          <Text size="small" className="text-ui-fg-subtle">
            {offset + 1}–{Math.min(offset + PAGE_SIZE, data.count)} / {data.count}
          </Text>
          <Button size="small" variant="secondary" disabled={offset + PAGE_SIZE >= data.count} onClick={() => setOffset(offset + PAGE_SIZE)}>
            ›
          </Button>
        </div>
      )}
    </Container>
  )
}

export const config = defineRouteConfig({
  label: "odeme.settings.nav",
  translationNs: "translation",
  icon: CreditCard,
})

export default OdemeSettingsPage
