/**
 * One active follower per chain: a Postgres session advisory lock held on a dedicated connection.
 * When the holder dies its connection closes and Postgres releases the lock at once; a standby
 * polling every `pollMs` takes over within that interval.
 *
 * A holder cut off without FIN or RST (a partition, a lost node) is another matter: Postgres keeps
 * its session, and the lock, until TCP gives up on it (two hours of keepalive by default). So:
 * - the lease session asks Postgres to drop a silent peer quickly (TCP keepalive and user timeout
 *   of its own, about 10 s);
 * - the holder renews a row (`lease_renewals`) on that session every poll, and a standby that
 *   finds the row older than `expiryMs` ends the holder's session itself (which works whatever
 *   sits in the path: a proxy that keeps TCP alive, a NAT that never sends RST);
 * - the holder gives the lease up (aborts) as soon as a renewal fails or is slower than the probe
 *   timeout, which is shorter than the expiry: it stops before anybody can take over.
 * Each acquisition raises the row's `epoch`; a renewal names its epoch, so a holder that was taken
 * over cannot renew. If two followers ever overlap, deterministic message ids keep events single.
 */
import { createHash } from "node:crypto";
import type { Socket } from "node:net";
import pg from "pg";

export const DEFAULT_LEASE_POLL_MS = 1_000;
export const DEFAULT_LEASE_EXPIRY_MS = 15_000;
/** A lease probe slower than this counts as a lost connection (a loaded machine must not flap the lease). */
export const MIN_PROBE_TIMEOUT_MS = 3_000;
/** How long a release may wait for the server before the socket is dropped (a partitioned peer never answers). */
const RELEASE_WAIT_MS = 1_000;
/**
 * The lease session's own TCP settings on the server side: a peer that stops answering is dropped
 * after about 5 + 3 × 2 s idle, or 10 s of unacknowledged data, instead of the OS's two hours.
 */
const SERVER_SIDE_SESSION_SETTINGS =
  "set tcp_keepalives_idle = 5; set tcp_keepalives_interval = 2; set tcp_keepalives_count = 3; set tcp_user_timeout = 10000";

export interface LeaseLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface AdvisoryLeaseOptions {
  connectionString: string;
  /** e.g. "scanner:BTC" */
  name: string;
  /** Who asks (host and process), shown in the renewal row and the logs. */
  holder: string;
  /** The renewal table, schema-qualified (`scanner.lease_renewals`). */
  renewalTable: string;
  logger: LeaseLogger;
  pollMs?: number;
  /** A renewal older than this makes a standby end the holder's session. */
  expiryMs?: number;
  connectTimeoutMs?: number;
}

export interface HeldLease {
  /** Aborts when the lease is lost (connection gone, renewal failed or taken over) or released. */
  signal: AbortSignal;
  release(): Promise<void>;
}

/** The lock key: 63 bits of SHA-256 of the name, as a signed bigint string. */
export function leaseLockKey(name: string): string {
  return BigInt.asIntN(64, createHash("sha256").update(name).digest().readBigUInt64BE(0)).toString();
}

/** The probe timeout for a poll interval: a few polls, never under MIN_PROBE_TIMEOUT_MS. */
export const leaseProbeTimeoutMs = (pollMs: number) => Math.max(pollMs * 3, MIN_PROBE_TIMEOUT_MS);

/** Resolves once the lease is held; rejects only when `stop` aborts first. */
export async function acquireAdvisoryLease(options: AdvisoryLeaseOptions, stop: AbortSignal): Promise<HeldLease> {
  const pollMs = options.pollMs ?? DEFAULT_LEASE_POLL_MS;
  const key = leaseLockKey(options.name);
  let waitingLogged = false;
  while (!stop.aborted) {
    const client = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      query_timeout: leaseProbeTimeoutMs(pollMs),
      application_name: `chaingate-${options.name}`,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query(SERVER_SIDE_SESSION_SETTINGS);
      while (!stop.aborted) {
        const { rows } = await client.query<{ held: boolean }>("select pg_try_advisory_lock($1::bigint) as held", [key]);
        if (rows[0]?.held) return hold(client, key, await claim(client, options), options, pollMs);
        await endSilentHolder(client, key, options);
        if (!waitingLogged) options.logger.info({ lease: options.name }, "lease held by another replica; standing by");
        waitingLogged = true;
        await delay(pollMs, stop);
      }
    } catch (error) {
      options.logger.warn({ err: error, lease: options.name }, "lease connection failed; retrying");
      await delay(pollMs, stop);
    }
    await closeClient(client);
  }
  throw new Error("stopped before the lease was acquired");
}

/** Records this session as the holder under a new epoch; returns the epoch. */
async function claim(client: pg.Client, options: AdvisoryLeaseOptions): Promise<string> {
  const { rows } = await client.query<{ epoch: string }>(
    `insert into ${options.renewalTable} (name, holder, holder_pid, epoch, renewed_at) values ($1, $2, pg_backend_pid(), 1, now())
     on conflict (name) do update set holder = excluded.holder, holder_pid = excluded.holder_pid,
       epoch = ${options.renewalTable}.epoch + 1, renewed_at = now()
     returning epoch`,
    [options.name, options.holder],
  );
  return rows[0]!.epoch;
}

/**
 * Ends the session of a holder that stopped renewing, when that session still holds this very
 * lock (a pid can be reused; the lock check makes sure it is the lease's session).
 */
async function endSilentHolder(client: pg.Client, key: string, options: AdvisoryLeaseOptions): Promise<void> {
  const { rows } = await client.query<{ holder: string; holder_pid: number; silent_ms: number; ended: boolean }>(
    `select r.holder, r.holder_pid, (extract(epoch from now() - r.renewed_at) * 1000)::float8 as silent_ms,
            pg_terminate_backend(r.holder_pid) as ended
       from ${options.renewalTable} r
      where r.name = $1 and r.renewed_at < now() - make_interval(secs => $2::float8 / 1000)
        and exists (select 1 from pg_locks l
                     where l.locktype = 'advisory' and l.granted and l.pid = r.holder_pid and l.objsubid = 1
                       and l.classid = (($3::bigint >> 32) & 4294967295)::oid and l.objid = ($3::bigint & 4294967295)::oid)`,
    [options.name, options.expiryMs ?? DEFAULT_LEASE_EXPIRY_MS, key],
  );
  for (const row of rows) {
    options.logger.warn(
      { lease: options.name, holder: row.holder, holderPid: row.holder_pid, silentMs: Math.round(row.silent_ms), ended: row.ended },
      "lease holder stopped renewing (partitioned or frozen): ended its database session to take the lease over",
    );
  }
}

function hold(client: pg.Client, key: string, epoch: string, options: AdvisoryLeaseOptions, pollMs: number): HeldLease {
  const controller = new AbortController();
  options.logger.info({ lease: options.name, epoch }, "lease acquired");
  const lose = (reason: string) => {
    if (controller.signal.aborted) return;
    options.logger.warn({ lease: options.name, reason }, "lease lost");
    controller.abort(new Error(`lease ${options.name} lost: ${reason}`));
  };
  client.on("error", (error) => lose(error.message));
  client.on("end", () => lose("connection ended"));
  let renewing = false;
  const renew = setInterval(() => {
    if (renewing) return;
    renewing = true;
    client
      .query(`update ${options.renewalTable} set renewed_at = now() where name = $1 and epoch = $2 and holder_pid = pg_backend_pid()`, [
        options.name,
        epoch,
      ])
      .then(
        (result) => {
          if (result.rowCount === 0) lose("taken over by another replica");
        },
        (error: Error) => lose(`renewal failed: ${error.message}`),
      )
      .finally(() => (renewing = false));
  }, pollMs);
  renew.unref();
  return {
    signal: controller.signal,
    async release() {
      clearInterval(renew);
      if (!controller.signal.aborted) controller.abort(new Error("released"));
      await withinRelease(client.query("select pg_advisory_unlock($1::bigint)", [key]));
      await closeClient(client);
    },
  };
}

/** Ends the client; a peer that never answers (a partition) gets its socket dropped instead. */
async function closeClient(client: pg.Client): Promise<void> {
  if (!(await withinRelease(client.end()))) {
    // pg keeps the socket private; ending it is the only way out of a connection nobody answers on.
    (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
  }
}

/** true when `work` settled within RELEASE_WAIT_MS (its failure is of no interest here). */
function withinRelease(work: Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), RELEASE_WAIT_MS);
    work.then(
      () => (clearTimeout(timer), resolve(true)),
      () => (clearTimeout(timer), resolve(true)),
    );
  });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
