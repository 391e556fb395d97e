import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * The poller's lease gets a column of its own (models/odeme-payment.ts
 * `claimed_until`): a claim then changes no indexed column. Leases taken
 * before this moved `next_check_at` instead, and simply end then.
 */
export class Migration20261126160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" add column if not exists "claimed_until" timestamptz null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop column if exists "claimed_until";`)
  }
}
