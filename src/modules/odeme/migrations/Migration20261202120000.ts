import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Issue 43, the service's page shows the plugin's internal id: each payment gets a short reference
 * (`OD-7K3F9Q`), sent to the service as `order_id` and shown to the shopper, unique so that a
 * notification naming it finds exactly one session. Rows recorded before keep none: their session id
 * stays what the service knows them by.
 */
export class Migration20261202120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" add column if not exists "reference" text null;`)
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_odeme_payment_reference_unique" ON "odeme_payment" ("reference") WHERE deleted_at IS NULL;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_odeme_payment_reference_unique";`)
    this.addSql(`alter table if exists "odeme_payment" drop column if exists "reference";`)
  }
}
