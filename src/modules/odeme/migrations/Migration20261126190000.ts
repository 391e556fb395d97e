import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * A new review code, `already_paid`: a verified success for a cart or
 * balance another payment had already paid (the customer paid again in a
 * second tab). It is never captured; its charge is money to give back.
 */
export class Migration20261126190000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_review_code_check";`)
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_review_code_check" check ("review_code" in ('amount_mismatch', 'late_success', 'session_gone', 'already_paid', 'contradiction', 'creation_unknown'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_review_code_check";`)
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_review_code_check" check ("review_code" in ('amount_mismatch', 'late_success', 'session_gone', 'contradiction', 'creation_unknown'));`
    )
  }
}
