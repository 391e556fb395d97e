import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261122010808 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_session_id_unique";`)
    this.addSql(`alter table if exists "odeme_notification" drop constraint if exists "odeme_notification_dedupe_key_unique";`)
    this.addSql(
      `create table if not exists "odeme_notification" ("id" text not null, "source" text not null, "dedupe_key" text not null, "session_id" text null, "service_uuid" text null, "status" text null, "type" text null, "payload" jsonb not null, "raw_body" text null, "state" text not null default 'received', "attempts" integer not null default 0, "next_attempt_at" timestamptz null, "locked_until" timestamptz null, "last_error" text null, "verify_result" jsonb null, "outcome" text null, "duplicate_count" integer not null default 0, "processed_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "odeme_notification_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_notification_deleted_at" ON "odeme_notification" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_odeme_notification_dedupe_key_unique" ON "odeme_notification" ("dedupe_key") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_notification_session_id" ON "odeme_notification" ("session_id") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE INDEX IF NOT EXISTS "IDX_odeme_notification_due" ON "odeme_notification" ("state", "next_attempt_at") WHERE deleted_at IS NULL;`
    )

    this.addSql(
      `create table if not exists "odeme_payment" ("id" text not null, "session_id" text not null, "provider" text not null, "flow" text null, "mode" text not null, "amount" text not null, "currency" text not null, "status" text not null default 'pending', "creation_state" text not null default 'none', "creation_started_at" timestamptz null, "service_uuid" text null, "tracking_no" text null, "payer_name" text null, "bank_id" integer null, "bank_name" text null, "account_holder" text null, "iban" text null, "charged_amount" text null, "charged_currency" text null, "next_check_at" timestamptz null, "check_attempts" integer not null default 0, "last_checked_at" timestamptz null, "last_result" text null, "review_reason" text null, "cart_id" text null, "order_id" text null, "metadata" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "odeme_payment_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_payment_deleted_at" ON "odeme_payment" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_odeme_payment_session_id_unique" ON "odeme_payment" ("session_id") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_payment_service_uuid" ON "odeme_payment" ("service_uuid") WHERE deleted_at IS NULL;`)
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_payment_due" ON "odeme_payment" ("status", "next_check_at") WHERE deleted_at IS NULL;`)
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "odeme_notification" cascade;`)

    this.addSql(`drop table if exists "odeme_payment" cascade;`)
  }
}
