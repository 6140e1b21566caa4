/**
 * One active follower per chain: a Postgres session advisory lock held on a dedicated connection.
 * When the holder dies its connection closes and Postgres releases the lock at once; a standby
 * polling every `pollMs` takes over within that interval. The holder checks its connection every
 * `pollMs` too and gives up the lease (aborts) when it is lost, so two followers never overlap for
 * longer than a poll (and if they do, deterministic message ids keep their events single).
 */
import { createHash } from "node:crypto";
import pg from "pg";

export const DEFAULT_LEASE_POLL_MS = 1_000;
/** A lease probe slower than this counts as a lost connection (a loaded machine must not flap the lease). */
const MIN_PROBE_TIMEOUT_MS = 3_000;

export interface LeaseLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface AdvisoryLeaseOptions {
  connectionString: string;
  /** e.g. "scanner:BTC" */
  name: string;
  logger: LeaseLogger;
  pollMs?: number;
  connectTimeoutMs?: number;
}

export interface HeldLease {
  /** Aborts when the lease is lost (connection gone) or released. */
  signal: AbortSignal;
  release(): Promise<void>;
}

/** The lock key: 63 bits of SHA-256 of the name, as a signed bigint string. */
function lockKey(name: string): string {
  return BigInt.asIntN(64, createHash("sha256").update(name).digest().readBigUInt64BE(0)).toString();
}

/** Resolves once the lease is held; rejects only when `stop` aborts first. */
export async function acquireAdvisoryLease(options: AdvisoryLeaseOptions, stop: AbortSignal): Promise<HeldLease> {
  const pollMs = options.pollMs ?? DEFAULT_LEASE_POLL_MS;
  const key = lockKey(options.name);
  let waitingLogged = false;
  while (!stop.aborted) {
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3_000,
      keepAlive: true,
      query_timeout: Math.max(pollMs * 3, MIN_PROBE_TIMEOUT_MS),
      application_name: `chaingate-${options.name}`,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      while (!stop.aborted) {
        const { rows } = await client.query<{ held: boolean }>("select pg_try_advisory_lock($1::bigint) as held", [key]);
        if (rows[0]?.held) return hold(client, key, options, pollMs);
        if (!waitingLogged) options.logger.info({ lease: options.name }, "lease held by another replica; standing by");
        waitingLogged = true;
        await delay(pollMs, stop);
      }
    } catch (error) {
      options.logger.warn({ err: error, lease: options.name }, "lease connection failed; retrying");
      await delay(pollMs, stop);
    }
    await client.end().catch(() => {});
  }
  throw new Error("stopped before the lease was acquired");
}

function hold(client: pg.Client, key: string, options: AdvisoryLeaseOptions, pollMs: number): HeldLease {
  const controller = new AbortController();
  options.logger.info({ lease: options.name }, "lease acquired");
  const lose = (reason: string) => {
    if (controller.signal.aborted) return;
    options.logger.warn({ lease: options.name, reason }, "lease lost");
    controller.abort(new Error(`lease ${options.name} lost: ${reason}`));
  };
  client.on("error", (error) => lose(error.message));
  client.on("end", () => lose("connection ended"));
  const probe = setInterval(() => {
    client.query("select 1").catch((error: Error) => lose(error.message));
  }, pollMs);
  probe.unref();
  return {
    signal: controller.signal,
    async release() {
      clearInterval(probe);
      if (!controller.signal.aborted) controller.abort(new Error("released"));
      await client.query("select pg_advisory_unlock($1::bigint)", [key]).catch(() => {});
      await client.end().catch(() => {});
    },
  };
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
