import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * A canceled API transfer can still be paid by a customer who saw its IBAN,
 * until it expires: the poller keeps asking about it, so its claim index
 * holds canceled rows too. (MikroORM does not see a changed index predicate,
 * hence written by hand.)
 */
export class Migration20261125080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index if exists "IDX_odeme_payment_poll";`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_payment_poll" ON "odeme_payment" ("created_at") WHERE deleted_at IS NULL AND service_uuid IS NOT NULL AND next_check_at IS NOT NULL AND status IN ('awaiting_transfer', 'unknown', 'paid', 'canceled');`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_odeme_payment_poll";`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_payment_poll" ON "odeme_payment" ("created_at") WHERE deleted_at IS NULL AND service_uuid IS NOT NULL AND next_check_at IS NOT NULL AND status IN ('awaiting_transfer', 'unknown', 'paid');`
    )
  }
}
