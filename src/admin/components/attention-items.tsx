import { Badge, Button, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import type { AttentionAction, AttentionItem } from "../lib/odeme-api"
import { useAttentionAction } from "../lib/queries"
import type { CheckResult } from "../lib/odeme-api"
import { attentionColor, formatTime } from "./odeme-status"
import { TechnicalDetails } from "./technical-details"
import { attentionTitle, attentionTodo, attentionWho, checkToast, errorText } from "./words"

/** The shortest note "Mark resolved" sends: the server's RESOLVE_NOTE_MIN_LENGTH (src/api/admin/odeme/validators.ts). */
const RESOLVE_NOTE_MIN_LENGTH = 3
/** The longest: the server's validator (AdminResolveOdemePayment, `max(1000)` after trimming). */
const RESOLVE_NOTE_MAX_LENGTH = 1000

/**
 * "Needs attention" items with what to do and their actions. Used by the
 * settings page (every item) and the order widget (the order's items).
 */
export function AttentionItems({ items, compact = false }: { items: AttentionItem[]; compact?: boolean }) {
  return (
    <ul className="flex flex-col gap-y-3" data-testid="odeme-attention-items">
      {items.map((item) => (
        <AttentionRow key={item.id} item={item} compact={compact} />
      ))}
    </ul>
  )
}

function AttentionRow({ item, compact }: { item: AttentionItem; compact: boolean }) {
  const { t, i18n } = useTranslation()
  // What "Ask Odeme now" found stays with the item; the toast only names it.
  const [checked, setChecked] = useState<CheckResult | null>(null)
  // The order's own items (compact) sit on the order's page: its customer and amount are already there.
  const who = compact ? "" : attentionWho(item, i18n.language)
  return (
    <li className="flex flex-col gap-y-1" data-testid="odeme-attention-item" data-kind={item.kind} data-code={item.code}>
      <div className="flex flex-wrap items-center gap-x-2">
        <Badge size="2xsmall" color={attentionColor(item.kind)}>
          {t(`odeme.attention.kinds.${item.kind}`)}
        </Badge>
        <Text size="small" weight="plus" leading="compact" data-testid="odeme-attention-title">
          {attentionTitle(t, item)}
        </Text>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {who && (
          <Text size="small" leading="compact" data-testid="odeme-attention-who">
            {who}
          </Text>
        )}
        {item.actions.length > 0 && (
          <div className="flex gap-x-2">
            {item.actions.map((action) => (
              <ActionButton key={action} item={item} action={action} onChecked={setChecked} />
            ))}
          </div>
        )}
      </div>
      {checked && (
        <Text size="small" leading="compact" className="text-ui-fg-base" data-testid="odeme-attention-check-result" data-code={checked.code}>
          {checkToast(t, checked).description}
        </Text>
      )}
      <Text size="small" leading="compact" className="text-ui-fg-subtle" data-testid="odeme-attention-todo">
        {attentionTodo(t, item)}
      </Text>
      {!compact && (
        <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
          {item.order_id ? (
            <Link to={`/orders/${item.order_id}`} className="text-ui-fg-interactive" data-testid="odeme-attention-order">
              {t("odeme.attention.openOrder")}
            </Link>
          ) : (
            t("odeme.attention.noOrder")
          )}
          {" · "}
          {t("odeme.attention.since", { at: formatTime(item.since, i18n.language) })}
        </Text>
      )}
      <TechnicalDetails
        testId="odeme-attention-technical"
        rows={[
          [t("odeme.technical.orderId"), compact ? null : item.order_id],
          [t("odeme.technical.session"), item.session_id],
          [t("odeme.attention.uuids"), item.service_uuids.length ? item.service_uuids.join(", ") : null],
          [t("odeme.technical.code"), item.code],
          [t("odeme.technical.detail"), item.detail],
        ]}
      />
    </li>
  )
}

function ActionButton({ item, action, onChecked }: { item: AttentionItem; action: AttentionAction; onChecked: (r: CheckResult) => void }) {
  const { t } = useTranslation()
  const mutation = useAttentionAction(action)
  const target =
    action === "check" || action === "resolve" ? item.session_id : action === "retry" ? item.notification_id : (item.refund_id ?? item.charge_id)
  if (!target) return null
  const run = () => {
    // What the person did is kept in the payment's timeline.
    const note = action === "resolve" ? window.prompt(t("odeme.attention.resolvePrompt")) : undefined
    if (note === null) return // canceled
    // The server's bounds, said before sending in the user's language (Medusa's own refusal of the upper one is English).
    const length = (note ?? "").trim().length
    if (action === "resolve" && (length < RESOLVE_NOTE_MIN_LENGTH || length > RESOLVE_NOTE_MAX_LENGTH)) {
      const why = length < RESOLVE_NOTE_MIN_LENGTH ? "odeme.errors.note_too_short" : "odeme.errors.note_too_long"
      toast.error(t("odeme.attention.toast.failed"), { description: t(why) })
      return
    }
    mutation.mutate(
      { id: target, kind: item.refund_id ? "refund" : "charge", note: note ?? undefined },
      {
        onSuccess: (answer: unknown) => {
          // "Ask Odeme now" says what it found (still waiting, paid now, unknown to the service), not just "done":
          // one line in the toast, the sentence in the item, where it does not cover the item's buttons.
          if (action === "check" && answer && typeof answer === "object" && "state" in answer) {
            const shown = checkToast(t, answer as CheckResult)
            onChecked(answer as CheckResult)
            toast[shown.kind](shown.title)
          } else toast.success(t("odeme.attention.toast.done"))
        },
        onError: (e: unknown) => toast.error(t("odeme.attention.toast.failed"), { description: errorText(t, e) }),
      }
    )
  }
  return (
    <Button
      size="small"
      variant={action === "acknowledge" ? "primary" : "secondary"}
      onClick={run}
      isLoading={mutation.isPending}
      disabled={mutation.isPending}
      data-testid={`odeme-attention-${action}`}
    >
      {t(`odeme.attention.actions.${action}`)}
    </Button>
  )
}
