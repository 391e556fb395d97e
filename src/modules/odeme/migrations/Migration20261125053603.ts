import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261125053603 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_refund" drop constraint if exists "odeme_refund_medusa_refund_unique";`)
    this.addSql(
      `create table if not exists "odeme_refund" ("id" text not null, "session_id" text not null, "medusa_refund_id" text null, "amount" text not null, "currency" text null, "acknowledged_at" timestamptz null, "acknowledged_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "odeme_refund_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_refund_deleted_at" ON "odeme_refund" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_odeme_refund_medusa_refund_unique" ON "odeme_refund" ("medusa_refund_id") WHERE medusa_refund_id IS NOT NULL AND deleted_at IS NULL;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_refund_open" ON "odeme_refund" ("created_at") WHERE deleted_at IS NULL AND acknowledged_at IS NULL;`
    )

    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_notification_return_success" ON "odeme_notification" ("created_at") WHERE deleted_at IS NULL AND source = 'return' AND status = 'successful';`
    )

    this.addSql(
      `alter table if exists "odeme_payment" add column if not exists "settle_failures" integer not null default 0, add column if not exists "check_failures" integer not null default 0, add column if not exists "resolved_at" timestamptz null, add column if not exists "resolved_by" text null, add column if not exists "resolution_note" text null;`
    )
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_payment_unsettled" ON "odeme_payment" ("updated_at") WHERE deleted_at IS NULL AND status = 'paid' AND order_id IS NULL AND cart_id IS NOT NULL;`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "odeme_refund" cascade;`)

    this.addSql(`drop index if exists "IDX_odeme_notification_return_success";`)

    this.addSql(`drop index if exists "IDX_odeme_payment_unsettled";`)
    this.addSql(
      `alter table if exists "odeme_payment" drop column if exists "settle_failures", drop column if exists "check_failures", drop column if exists "resolved_at", drop column if exists "resolved_by", drop column if exists "resolution_note";`
    )
  }
}
