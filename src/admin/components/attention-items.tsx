import { Badge, Button, Text, toast } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import type { AttentionAction, AttentionItem } from "../lib/odeme-api"
import { useAttentionAction } from "../lib/queries"
import type { CheckResult } from "../lib/odeme-api"
import { attentionColor, formatMoney, formatTime } from "./odeme-status"
import { TechnicalDetails } from "./technical-details"
import { attentionTitle, attentionTodo, checkToast, errorText } from "./words"

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
          {item.amount && <> · {formatMoney(item.amount, item.currency, i18n.language)}</>}
          {" · "}
          {t("odeme.attention.since", { at: formatTime(item.since, i18n.language) })}
        </Text>
      )}
      <TechnicalDetails
        testId="odeme-attention-technical"
        rows={[
          [t("odeme.technical.orderId"), compact ? null : item.order_id],
          [t("odeme.technical.reference"), item.session_id],
          [t("odeme.attention.uuids"), item.service_uuids.length ? item.service_uuids.join(", ") : null],
          [t("odeme.technical.code"), item.code],
          [t("odeme.technical.detail"), item.detail],
        ]}
      />
      {item.actions.length > 0 && (
        <div className="flex gap-x-2 pt-1">
          {item.actions.map((action) => (
            <ActionButton key={action} item={item} action={action} />
          ))}
        </div>
      )}
    </li>
  )
}

function ActionButton({ item, action }: { item: AttentionItem; action: AttentionAction }) {
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
          // "Ask Odeme now" says what it found (still waiting, paid now, unknown to the service), not just "done".
          if (action === "check" && answer && typeof answer === "object" && "state" in answer) {
            const shown = checkToast(t, answer as CheckResult)
            toast[shown.kind](shown.title, { description: shown.description })
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
