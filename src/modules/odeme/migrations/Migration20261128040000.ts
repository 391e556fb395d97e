import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * When a Quick Checkout form was last signed for the session: its customer may
 * pay within the form's window, so an abandoned order of theirs waits.
 */
export class Migration20261128040000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" add column if not exists "form_signed_at" timestamptz null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop column if exists "form_signed_at";`)
  }
}
