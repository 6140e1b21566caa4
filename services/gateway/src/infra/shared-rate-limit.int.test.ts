/**
 * The shared rate limit over a real Postgres: replicas (limiters over one database) admit the
 * bucket's capacity between them however their requests interleave, key and account buckets are
 * apart, unspent leases lapse, and an unreachable database falls back to a per-replica limit with
 * a warning instead of failing requests.
 */
import { createDatabase } from "@chaingate/db";
import { createLogger } from "@chaingate/logger";
import { describe, expect, vi } from "vitest";
import { gatewayTest as it } from "../testing/gateway-fixtures.ts";
import { GATEWAY_SCHEMA, type GatewayDatabase } from "./database-schema.ts";
import { createSharedRateLimit, type SharedRateLimit } from "./shared-rate-limit.ts";

const silent = () => createLogger({ service: "test", level: "silent" });
let nextKeyId = 1;

/** Takes `count` requests of `keyId` at once, spread round-robin over `replicas`; the number admitted. */
async function admitted(replicas: SharedRateLimit[], keyId: number, count: number): Promise<number> {
  const waits = await Promise.all(Array.from({ length: count }, (_, i) => replicas[i % replicas.length]!.take(keyId)));
  return waits.filter((wait) => wait === 0).length;
}

describe("the shared rate limit", () => {
  it("admits one second's worth between three replicas, whatever the lease size", async ({ gatewayDb: database }) => {
    for (const rate of [5, 50]) {
      const replicas = [1, 2, 3].map(() => createSharedRateLimit(database.db, rate, silent()));
      const keyId = nextKeyId++;
      const startedMs = performance.now();
      const count = await admitted(replicas, keyId, rate * 4);
      const refill = Math.floor(((performance.now() - startedMs) / 1000) * rate);
      expect(count).toBeGreaterThanOrEqual(rate);
      expect(count).toBeLessThanOrEqual(rate + refill);
    }
  });

  it("refuses with the seconds until a token is back, and admits again after the refill", async ({ gatewayDb: database }) => {
    const limit = createSharedRateLimit(database.db, 2, silent());
    const keyId = nextKeyId++;
    expect(await admitted([limit], keyId, 2)).toBe(2);
    expect(await limit.take(keyId)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await admitted([limit], keyId, 2)).toBe(2);
  });

  it("lets an unspent lease lapse: a replica that leased tokens a while ago cannot add them to a full bucket", async ({
    gatewayDb: database,
  }) => {
    const rate = 20; // leases of 2
    const early = createSharedRateLimit(database.db, rate, silent());
    const keyId = nextKeyId++;
    expect(await early.take(keyId)).toBe(0); // leased 2, spent 1
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // the bucket is full again; the lease lapsed
    const other = createSharedRateLimit(database.db, rate, silent());
    const startedMs = performance.now();
    const count = await admitted([early, other], keyId, rate * 3);
    expect(count).toBeLessThanOrEqual(rate + Math.floor(((performance.now() - startedMs) / 1000) * rate));
  });

  it("leases no more than the requests still waiting: two requests on one replica leave the third token to the other", async ({
    gatewayDb: database,
  }) => {
    // Lease size 1: the second request joins the first one's lease and, when that is spent, asks for
    // its own. Counting the first as still waiting (it leaves a moment later) leased two tokens and
    // stranded one on this replica until it lapsed, while the other replica was refused.
    const [busy, other] = [1, 2].map(() => createSharedRateLimit(database.db, 3, silent()));
    const keyId = nextKeyId++;
    expect(await Promise.all([busy!.take(keyId), busy!.take(keyId)])).toEqual([0, 0]);
    expect(await other!.take(keyId)).toBe(0);
  });

  it("keeps account buckets apart from key buckets: the same id is two buckets", async ({ gatewayDb: database }) => {
    const id = nextKeyId++;
    const perKey = createSharedRateLimit(database.db, 2, silent(), "key");
    const perAccount = createSharedRateLimit(database.db, 2, silent(), "account");
    expect(await admitted([perKey], id, 3)).toBe(2);
    expect(await admitted([perAccount], id, 3)).toBe(2);
    expect(await createSharedRateLimit(database.db, 2, silent(), "account").take(id)).toBe(1);
  });

  it("falls back to a per-replica limit while the database cannot be reached, and says so once", async () => {
    const unreachable = createDatabase<GatewayDatabase>({
      connectionString: "postgres://chaingate@127.0.0.1:1/none",
      schema: GATEWAY_SCHEMA,
      connectTimeoutMs: 200,
    });
    const logger = silent();
    const warn = vi.spyOn(logger, "warn");
    try {
      const limit = createSharedRateLimit(unreachable.db, 3, logger);
      const waits = [];
      for (let i = 0; i < 5; i++) waits.push(await limit.take(nextKeyId));
      expect(waits).toEqual([0, 0, 0, 1, 1]);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      await unreachable.close();
    }
  });
});
