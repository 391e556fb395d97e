import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * A new review code, `verify_refused_mode`: a success from the sandbox for a
 * live store, whose API key is then a sandbox key. Never paid; no money moved.
 */
export class Migration20261127190000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_review_code_check";`)
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_review_code_check" check ("review_code" in ('amount_mismatch', 'late_success', 'session_gone', 'already_paid', 'contradiction', 'creation_unknown', 'verify_refused_mode'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_review_code_check";`)
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_review_code_check" check ("review_code" in ('amount_mismatch', 'late_success', 'session_gone', 'already_paid', 'contradiction', 'creation_unknown'));`
    )
  }
}
