import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Issue 42, each stored vocabulary held by the database: a payment's `flow`
 * and `mode` and a notification's `outcome` get the check constraints the
 * other vocabularies have (their lists: models/states.ts). Rows written
 * before are carried: the one misspelling of a flow ever seen is mended, and
 * an outcome no version names any more moves, word for word, into the row's
 * `last_error`, so the constraint holds and nothing is lost. The lists are
 * written out, not imported: a migration says what the database held at its
 * time (a unit test holds the newest of each equal to models/states.ts).
 */
export class Migration20261202130000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`update "odeme_payment" set "flow" = 'transfer_api' where "flow" = 'api_transfer';`)
    this.addSql(`update "odeme_payment" set "flow" = null where "flow" is not null and "flow" not in ('card', 'transfer_page', 'transfer_api');`)
    this.addSql(
      `update "odeme_notification" set "last_error" = concat_ws(' ', "last_error", '(outcome before the upgrade: ' || "outcome" || ')'), "outcome" = null
       where "outcome" is not null and "outcome" not in ('created', 'unknown', 'pending', 'paid', 'failed', 'expired', 'canceled', 'rejected', 'review', 'duplicate_charge', 'late_success', 'unchanged', 'unverifiable', 'unknown_session', 'verify_failed', 'error', 'dead', 'navigation_only', 'mismatch', 'invalid', 'deferred');`
    )
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_flow_check";`)
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_flow_check" check ("flow" in ('card', 'transfer_page', 'transfer_api'));`
    )
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_mode_check";`)
    this.addSql(`alter table if exists "odeme_payment" add constraint "odeme_payment_mode_check" check ("mode" in ('sandbox', 'live'));`)
    this.addSql(`alter table if exists "odeme_notification" drop constraint if exists "odeme_notification_outcome_check";`)
    this.addSql(
      `alter table if exists "odeme_notification" add constraint "odeme_notification_outcome_check" check ("outcome" in ('created', 'unknown', 'pending', 'paid', 'failed', 'expired', 'canceled', 'rejected', 'review', 'duplicate_charge', 'late_success', 'unchanged', 'unverifiable', 'unknown_session', 'verify_failed', 'error', 'dead', 'navigation_only', 'mismatch', 'invalid', 'deferred'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_flow_check";`)
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_mode_check";`)
    this.addSql(`alter table if exists "odeme_notification" drop constraint if exists "odeme_notification_outcome_check";`)
  }
}
