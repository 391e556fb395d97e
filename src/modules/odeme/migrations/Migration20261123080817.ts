import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123080817 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_notification_open" ON "odeme_notification" ("created_at") WHERE deleted_at IS NULL AND state IN ('received', 'retry', 'processing');`
    )

    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_payment_poll" ON "odeme_payment" ("created_at") WHERE deleted_at IS NULL AND service_uuid IS NOT NULL AND next_check_at IS NOT NULL AND status IN ('awaiting_transfer', 'unknown', 'paid');`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_odeme_notification_open";`)

    this.addSql(`drop index if exists "IDX_odeme_payment_poll";`)
  }
}
