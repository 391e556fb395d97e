/**
 * The attention read model: what a person must look at (attention-sql.ts), a page of it with counts by kind
 * and code, and a person's "resolved" on a payment. Each function runs on the knex the module service
 * (./service.ts) gives it.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { OdemeOptions } from "../../lib/options"
import { pollerPeriodMs } from "../../lib/poller-period"
import { ATTENTION_KINDS } from "../../lib/attention-types"
import { ATTENTION_SQL } from "./attention-sql"
import { MEDUSA_REFUSALS } from "./models/states"
import { NOTIFICATION, PAYMENT } from "./rows"
import type { AttentionKind, AttentionRow, OdemePaymentRow } from "./types"

/**
 * What a person must look at (ATTENTION_SQL), newest first, with counts.
 * Thresholds: a return that said success with no verified notification
 * after `unconfirmedAfterMinutes` (the webhook is not arriving), and
 * `failuresBeforeAttention` consecutive failures of settling in Medusa or
 * of asking the service about a transfer.
 */
export async function listAttention(
  db: Knex,
  options: Pick<OdemeOptions, "notifications" | "transfer">,
  page: { limit: number; offset: number; sessionIds?: string[]; kinds?: AttentionKind[] }
): Promise<{ rows: AttentionRow[]; counts: Record<AttentionKind, number>; codes: Record<string, number> }> {
  const n = options.notifications
  const filters = [page.sessionIds ? "session_id = any(:sessions)" : null, page.kinds ? "kind = any(:kinds)" : null].filter(Boolean)
  const only = filters.length ? ` where ${filters.join(" and ")}` : ""
  const bindings = {
    unconfirmed_seconds: Math.round(n.unconfirmedAfterMinutes * 60),
    unprocessed_seconds: Math.round(n.unprocessedAfterMinutes * 60),
    // "Three of its periods" without a pass (lib/poller-period.ts).
    poller_seconds: Math.round((3 * pollerPeriodMs(options.transfer.pollSchedule)) / 1000),
    failures: n.failuresBeforeAttention,
    sessions: page.sessionIds ?? null,
    kinds: page.kinds ?? null,
    limit: page.limit,
    offset: page.offset,
  }
  const [{ rows }, { rows: countRows }] = await Promise.all([
    db.raw(`select * from (${ATTENTION_SQL}) a${only} order by since desc limit :limit offset :offset`, bindings),
    db.raw(`select kind, code, count(*)::int as n from (${ATTENTION_SQL}) a${only} group by kind, code`, bindings),
  ])
  const counts = Object.fromEntries(ATTENTION_KINDS.map((k) => [k, 0])) as Record<AttentionKind, number>
  const codes: Record<string, number> = {}
  for (const r of countRows as Array<{ kind: AttentionKind; code: string; n: number }>) {
    counts[r.kind] += r.n
    codes[r.code] = (codes[r.code] ?? 0) + r.n
  }
  return { rows, counts, codes }
}

/**
 * A person closed a review or stuck item with what they did (kept in the
 * timeline); the state is not changed. Until its state changes (then it is
 * a new item).
 */
export async function resolvePayment(db: Knex, sessionId: string, actor: string | null, note: string): Promise<OdemePaymentRow | null> {
  const rows = await db(PAYMENT)
    .whereNull("deleted_at")
    .where({ session_id: sessionId })
    .where((q) =>
      q
        .whereIn("status", ["review", "unknown"])
        .orWhere("settle_failures", ">", 0)
        .orWhere("check_failures", ">", 0)
        .orWhereRaw(`${MEDUSA_REFUSALS.map(() => "jsonb_exists(metadata, ?)").join(" or ")}`, MEDUSA_REFUSALS)
        // A "paid" return no notification confirmed: the person may have checked the merchant panel and found nothing.
        .orWhere((r) =>
          r
            .whereIn("status", ["pending", "canceled"])
            .whereExists((e) =>
              e
                .select(1)
                .from(NOTIFICATION)
                .whereRaw(`${NOTIFICATION}.session_id = ${PAYMENT}.session_id`)
                .where({ source: "return", status: "successful" })
                .whereNull("deleted_at")
            )
        )
    )
    // The database's clock, which also stamps the returns a resolution is compared with.
    .update({
      resolved_at: db.fn.now(),
      resolved_by: actor,
      resolution_note: note,
      updated_at: new Date(),
    })
    .returning("*")
  return (rows[0] as OdemePaymentRow | undefined) ?? null
}
