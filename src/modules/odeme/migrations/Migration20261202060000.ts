import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * Issue 41, the service's deliveries: a notification says whether its
 * delivery proved who sent it (`trusted`: a webhook from an address named as
 * the service's, or a return with the session's proof, which `payload.proven`
 * said for returns until now) and how often its verify waited for the
 * session's budget (`deferrals`); `odeme_health` counts notifications for
 * references this store never made and keeps the poller's last pass.
 */
export class Migration20261202060000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table if exists "odeme_notification" add column if not exists "trusted" boolean not null default false, add column if not exists "deferrals" integer not null default 0;`
    )
    // A return stored before the flag said it in its payload; one without `proven` predates that too and counted as the customer's.
    this.addSql(`update "odeme_notification" set "trusted" = true where "source" = 'return' and coalesce("payload"->>'proven', 'true') <> 'false';`)
    this.addSql(`update "odeme_notification" set "payload" = "payload" - 'proven' where "source" = 'return' and jsonb_exists("payload", 'proven');`)
    this.addSql(
      `create table if not exists "odeme_health" ("id" text not null, "count" integer not null default 0, "last_at" timestamptz null, "recent" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "odeme_health_pkey" primary key ("id"), constraint "odeme_health_id_check" check ("id" in ('stray_notifications', 'poller_pass')));`
    )
  }

  override async down(): Promise<void> {
    this.addSql(`update "odeme_notification" set "payload" = "payload" || jsonb_build_object('proven', "trusted") where "source" = 'return';`)
    this.addSql(`alter table if exists "odeme_notification" drop column if exists "trusted", drop column if exists "deferrals";`)
    this.addSql(`drop table if exists "odeme_health" cascade;`)
  }
}
