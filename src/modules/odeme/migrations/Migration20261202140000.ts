import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Issue 42, each fact stored once: a transfer whose creation had no readable
 * answer was said three times (status `unknown`, creation_state `unknown`,
 * review_code `creation_unknown`). The review code goes: status `unknown`
 * says it, and the attention query and Admin derive the code from it. Rows
 * written before lose the repeated code; their reason text stays.
 */
export class Migration20261202140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_review_code_check";`)
    this.addSql(`update "odeme_payment" set "review_code" = null where "review_code" = 'creation_unknown';`)
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_review_code_check" check ("review_code" in ('amount_mismatch', 'late_success', 'session_gone', 'already_paid', 'contradiction', 'verify_refused_mode'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_review_code_check";`)
    this.addSql(`update "odeme_payment" set "review_code" = 'creation_unknown' where "status" = 'unknown' and "review_code" is null;`)
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_review_code_check" check ("review_code" in ('amount_mismatch', 'late_success', 'session_gone', 'already_paid', 'contradiction', 'creation_unknown', 'verify_refused_mode'));`
    )
  }
}
