/**
 * Key revocation and authentication through database faults, on a Postgres of the test's own:
 * the key-change listener's backend terminated, its socket stalled, the whole server down, and a
 * flood of random keys.
 */
import { execFileSync } from "node:child_process";
import { createDatabase, type Database } from "@chaingate/db";
import type { PrivatePostgres } from "@chaingate/testing";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { generateApiKey } from "./domain/api-key.ts";
import { INVALID_KEY_MESSAGE, KEYS_UNAVAILABLE_MESSAGE } from "./http/authenticate-request.ts";
import { createAccountAdmin } from "./infra/account-admin.ts";
import { createApiKeyStore } from "./infra/api-key-store.ts";
import { GATEWAY_SCHEMA, type GatewayDatabase } from "./infra/database-schema.ts";
import { gatewayMigrations } from "./infra/migrations/index.ts";
import { migrateToLatest } from "@chaingate/db";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { startTestGateway, type TestGateway } from "./testing/index.ts";

const PROBE_MS = 400;
/** The file's own Postgres, the gateway's schema on it, an account, and a gateway over it. */
interface KeyStoreFaults {
  postgres: PrivatePostgres;
  database: Database<GatewayDatabase>;
  gateway: TestGateway;
  admin: ReturnType<typeof createAccountAdmin>;
  accountId: number;
}

const it = gatewayTest.extend<{ faults: KeyStoreFaults }>({
  faults: [
    async ({ privatePostgres: postgres, standInUpstream }, use) => {
      const database = createDatabase<GatewayDatabase>({ connectionString: postgres.url, schema: GATEWAY_SCHEMA, connectTimeoutMs: 500 });
      await migrateToLatest(database.db, GATEWAY_SCHEMA, gatewayMigrations);
      const admin = createAccountAdmin(database.db);
      const accountId = await admin.createAccount("drill");
      let gateway: TestGateway | undefined;
      try {
        gateway = await startTestGateway(
          {
            BTC_PROXY_URL: standInUpstream,
            API_KEY_LISTENER_PROBE_MS: String(PROBE_MS),
            DATABASE_CONNECT_TIMEOUT_MS: "500",
            DATABASE_QUERY_TIMEOUT_MS: "1000",
          },
          postgres.url,
          { checkAnswers: false },
        );
        await use({ postgres, database, gateway, admin, accountId });
      } finally {
        await gateway?.close();
        await database.close();
      }
    },
    { scope: "file" },
  ],
});

const call = ({ gateway }: KeyStoreFaults, key: string) => fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": key } });

async function listenerBackendPid({ database }: KeyStoreFaults): Promise<number> {
  const { rows } = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where application_name = 'chaingate-gateway-key-listener'`.execute(database.db);
  expect(rows).toHaveLength(1);
  return rows[0]!.pid;
}

/** Waits until the key answers `status`; returns how long that took. */
async function untilStatus(faults: KeyStoreFaults, key: string, status: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await call(faults, key)).status === status) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`no ${status} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("key revocation through listener faults", () => {
  it("a deactivation made while the listener's backend was terminated (its NOTIFY lost) takes effect within one probe interval, not the cache TTL", async ({
    faults,
  }) => {
    const { database, admin, accountId } = faults;
    const { key, prefix } = await admin.createApiKey(accountId);
    expect((await call(faults, key)).status).toBe(200); // cached now
    await sql`select pg_terminate_backend(${await listenerBackendPid(faults)})`.execute(database.db);
    await admin.deactivateApiKey(prefix);
    // The gateway learns of the lost listener when its socket closes (milliseconds; at worst its
    // next probe) and then stops trusting its cache. A request that reaches it before that close
    // is read may still be served from the cache: "the next request" is not a promise another
    // replica can keep (clean-clone run 5 of session 10 saw a 200 there), the probe interval is.
    expect(await untilStatus(faults, key, 401, PROBE_MS)).toBeLessThanOrEqual(PROBE_MS);
    const response = await call(faults, key);
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 401, body: { message: INVALID_KEY_MESSAGE } });
  });

  it("a stalled listener socket (its backend frozen) is detected by the probe: the deactivation takes effect within about one probe interval", async ({
    faults,
  }) => {
    const { admin, accountId } = faults;
    await untilStatus(faults, generateApiKey(), 401, 5_000);
    await expect.poll(() => listenerBackendPid(faults).then(() => true), { timeout: 5_000 }).toBe(true);
    const { key, prefix } = await admin.createApiKey(accountId);
    expect((await call(faults, key)).status).toBe(200); // cached
    const pid = await listenerBackendPid(faults);
    execFileSync("kill", ["-STOP", String(pid)]);
    try {
      await admin.deactivateApiKey(prefix); // its NOTIFY cannot reach the frozen listener
      const tookMs = await untilStatus(faults, key, 401, 10 * PROBE_MS);
      expect(tookMs).toBeLessThan(3 * PROBE_MS);
    } finally {
      execFileSync("kill", ["-CONT", String(pid)]);
    }
  });
});

describe("authentication while Postgres is down", () => {
  it("answers 503 with Retry-After within the timeouts (never a revoked key let through, never a 500), and 200 again once it is back", async ({
    faults,
  }) => {
    const { postgres, gateway, admin, accountId } = faults;
    const { key } = await admin.createApiKey(accountId);
    expect((await call(faults, key)).status).toBe(200);
    await postgres.kill();
    try {
      const started = Date.now();
      const response = await call(faults, key);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({ message: KEYS_UNAVAILABLE_MESSAGE });
      expect(Date.now() - started).toBeLessThan(2_000);
      // Requests that need no key check keep working.
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${gateway.url}/readyz`)).status).toBe(503);
    } finally {
      await postgres.start();
    }
    await untilStatus(faults, key, 200, 10_000);
  });
});

describe("key cache", () => {
  /** A store over a kysely that counts the queries it runs. */
  async function countingStore({ database, postgres }: KeyStoreFaults, ttlMs: number) {
    const counter = { queries: 0 };
    const counted = database.db.withPlugin({
      transformQuery: (args) => (counter.queries++, args.node),
      transformResult: async (args) => args.result,
    });
    const store = createApiKeyStore({ db: counted, connectionString: postgres.url, cacheSize: 100, ttlMs });
    await store.ready;
    return { store, counter };
  }

  it("keeps a valid key cached through a flood of random keys", async ({ faults }) => {
    const { admin, accountId } = faults;
    const { store, counter } = await countingStore(faults, 60_000);
    try {
      const { key } = await admin.createApiKey(accountId);
      // The key's creation NOTIFY may evict the first cached copy: let it arrive, then cache.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await store.authenticate(key)).toEqual({ keyId: expect.any(Number), accountId });
      for (let i = 0; i < 5_000; i++) await store.authenticate(generateApiKey());
      const before = counter.queries;
      expect(await store.authenticate(key)).toEqual({ keyId: expect.any(Number), accountId });
      expect(counter.queries - before).toBe(0); // served from the cache: the flood evicted nothing
    } finally {
      await store.close();
    }
  });

  it("reads a cached row again once its TTL has passed", async ({ faults }) => {
    const { admin, accountId } = faults;
    const { store, counter } = await countingStore(faults, 300);
    try {
      const { key } = await admin.createApiKey(accountId);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await store.authenticate(key);
      const before = counter.queries;
      await store.authenticate(key);
      expect(counter.queries - before).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await store.authenticate(key);
      expect(counter.queries - before).toBe(1);
    } finally {
      await store.close();
    }
  });
});
