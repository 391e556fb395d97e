import { Migration } from "@medusajs/framework/mikro-orm/migrations"

export class Migration20261123063031 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "odeme_charge" drop constraint if exists "odeme_charge_session_uuid_unique";`)
    this.addSql(
      `create table if not exists "odeme_charge" ("id" text not null, "session_id" text not null, "service_uuid" text not null, "status" text check ("status" in ('successful', 'failed', 'pending')) not null, "role" text check ("role" in ('primary', 'duplicate', 'late', 'rejected', 'none')) not null default 'none', "type" text null, "amount" text null, "currency" text null, "detail" text null, "verified_at" timestamptz null, "acknowledged_at" timestamptz null, "acknowledged_by" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "odeme_charge_pkey" primary key ("id"));`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_charge_deleted_at" ON "odeme_charge" ("deleted_at") WHERE deleted_at IS NULL;`)
    this.addSql(
      `CREATE UNIQUE INDEX IF NOT EXISTS "IDX_odeme_charge_session_uuid_unique" ON "odeme_charge" ("session_id", "service_uuid") WHERE deleted_at IS NULL;`
    )
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_odeme_charge_role" ON "odeme_charge" ("role", "acknowledged_at") WHERE deleted_at IS NULL;`)

    this.addSql(
      `alter table if exists "odeme_notification" add constraint "odeme_notification_source_check" check("source" in ('webhook', 'return', 'poll', 'admin'));`
    )
    this.addSql(
      `alter table if exists "odeme_notification" add constraint "odeme_notification_state_check" check("state" in ('received', 'processing', 'retry', 'done', 'dead'));`
    )

    this.addSql(
      `alter table if exists "odeme_payment" add column if not exists "review_code" text check ("review_code" in ('amount_mismatch', 'late_success', 'session_gone', 'contradiction', 'creation_unknown')) null, add column if not exists "version" integer not null default 0, add column if not exists "verify_window_started_at" timestamptz null, add column if not exists "verify_calls" integer not null default 0;`
    )
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_status_check" check("status" in ('pending', 'awaiting_transfer', 'unknown', 'paid', 'failed', 'canceled', 'expired', 'review'));`
    )
    this.addSql(
      `alter table if exists "odeme_payment" add constraint "odeme_payment_creation_state_check" check("creation_state" in ('none', 'creating', 'created', 'failed', 'unknown'));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "odeme_charge" cascade;`)

    this.addSql(`alter table if exists "odeme_notification" drop constraint if exists "odeme_notification_source_check";`)
    this.addSql(`alter table if exists "odeme_notification" drop constraint if exists "odeme_notification_state_check";`)

    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_status_check";`)
    this.addSql(`alter table if exists "odeme_payment" drop constraint if exists "odeme_payment_creation_state_check";`)

    this.addSql(`alter table if exists "odeme_notification" alter column "source" type text using ("source"::text);`)
    this.addSql(`alter table if exists "odeme_notification" alter column "state" type text using ("state"::text);`)

    this.addSql(
      `alter table if exists "odeme_payment" drop column if exists "review_code", drop column if exists "version", drop column if exists "verify_window_started_at", drop column if exists "verify_calls";`
    )

    this.addSql(`alter table if exists "odeme_payment" alter column "status" type text using ("status"::text);`)
    this.addSql(`alter table if exists "odeme_payment" alter column "creation_state" type text using ("creation_state"::text);`)
  }
}
