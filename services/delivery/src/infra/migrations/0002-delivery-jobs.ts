import { sql, type Kysely } from "kysely";

/**
 * Delivery jobs live in Postgres: `transfer.matched` is acked only once its job is stored, and an
 * attempt's outcome and next schedule are stored before the job is let go, so a killed process
 * loses nothing (a job claimed by a dead process is due again when its lease runs out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("delivery_jobs")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("webhook_id", "bigint", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("coin", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    // pending → delivered | failed (retries used up, or 410) | skipped (webhook inactive or deleted)
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    /** When `delivery.failed` for a failed job reached JetStream (an outbox column). */
    .addColumn("failure_published_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // A redelivered or republished event is one job: duplicates never reach the subscriber twice from here.
    .addUniqueConstraint("delivery_jobs_webhook_event", ["webhook_id", "event_id"])
    .execute();
  await db.schema
    .createIndex("delivery_jobs_due")
    .on("delivery_jobs")
    .columns(["next_attempt_at"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema
    .createIndex("delivery_jobs_unpublished_failures")
    .on("delivery_jobs")
    .column("id")
    .where(sql.ref("status"), "=", "failed")
    .execute();
  await db.schema
    .createTable("delivery_attempts")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("job_id", "bigint", (c) => c.notNull().references("delivery_jobs.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("response_excerpt", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("delivery_attempts_job").on("delivery_attempts").columns(["job_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("delivery_attempts").execute();
  await db.schema.dropTable("delivery_jobs").execute();
}
