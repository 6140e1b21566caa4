/**
 * Deactivation without relying on NOTIFY: two gateway replicas over one database, behind a proxy
 * that holds back every notification their key-change listeners would receive (the probe is set
 * far apart so it cannot notice). The replica that deactivates a key refuses it from the next
 * request on; the other one within API_KEY_CACHE_TTL_MS, its documented bound.
 */
import { describe, expect } from "vitest";
import { INVALID_KEY_MESSAGE } from "./http/authenticate-request.ts";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { createAccountWithKey, runAdminCli, startTestGateway, type TestGateway } from "./testing/index.ts";
import { startKeyListenerProxy, type KeyListenerProxy } from "./testing/key-listener-proxy.ts";

/** The documented bound for replicas that missed the NOTIFY (the default API_KEY_CACHE_TTL_MS). */
const OTHER_REPLICA_BOUND_MS = 5_000;
const OPERATOR_TOKEN = "operator-token-for-tests-0123456789abcdef";
/** The probe would find the held listener dead and bypass the cache: keep it out of these tests. */
const NO_PROBE = { API_KEY_LISTENER_PROBE_MS: "600000" };

/** The two replicas and the account whose keys they cache. */
interface Replicas {
  deciding: TestGateway;
  other: TestGateway;
  owner: { accountId: number; key: string };
}

/** A gateway over the key listener proxy, with `settings`; closed after the file. */
const replicaBehind =
  (settings: Record<string, string>) =>
  async ({ keyListener }: { keyListener: KeyListenerProxy }, use: (gateway: TestGateway) => Promise<void>) => {
    const gateway = await startTestGateway(settings, keyListener.url);
    try {
      await use(gateway);
    } finally {
      await gateway.close();
    }
  };

const it = gatewayTest.extend<Replicas & { keyListener: KeyListenerProxy; releasedAfterEach: void }>({
  /** Between the replicas and the file's database: holds back NOTIFYs when told. */
  keyListener: [
    async ({ database }, use) => {
      const proxy = await startKeyListenerProxy(database.connectionString);
      try {
        await use(proxy);
      } finally {
        await proxy.close();
      }
    },
    { scope: "file" },
  ],
  deciding: [replicaBehind({ ...NO_PROBE, CONSOLE_OPERATOR_TOKEN: OPERATOR_TOKEN }), { scope: "file" }],
  other: [replicaBehind(NO_PROBE), { scope: "file" }],
  owner: [
    // Made once both replicas run, as before any test.
    async ({ database, deciding, other }, use) => {
      void deciding;
      void other;
      await use(await createAccountWithKey(database.connectionString, "owner"));
    },
    { scope: "file" },
  ],
  /** Each test starts with notifications flowing again. */
  releasedAfterEach: [
    async ({ keyListener }, use) => {
      await use();
      keyListener.release();
    },
    { auto: true },
  ],
});

async function call(base: string, method: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${base}${path}`, { method, headers: { accept: "application/json", ...headers } });
  return { status: response.status, body: (await response.json()) as { data: { id: number; key: string }; message?: string } };
}
const as = (key: string) => ({ "x-api-key": key });

/** A new key of the owner's account, made and used (so cached) on both replicas while notifications are held. */
async function cachedKeyOnBothReplicas({ deciding, other, owner }: Replicas): Promise<{ id: number; key: string }> {
  const { id, key } = (await call(deciding.url, "POST", "/api/v1/keys", as(owner.key))).body.data;
  for (const base of [deciding.url, other.url]) expect((await call(base, "GET", "/api/v1/keys", as(key))).status).toBe(200);
  return { id, key };
}

describe("the replica that deactivates a key", () => {
  it.for<[string, (id: number, key: string, ownerKey: string) => { path: string; headers: Record<string, string> }]>([
    ["the key itself", (id: number, key: string) => ({ path: `/api/v1/keys/${id}/deactivate`, headers: as(key) })],
    [
      "another key of the account",
      (id: number, _key: string, ownerKey: string) => ({ path: `/api/v1/keys/${id}/deactivate`, headers: as(ownerKey) }),
    ],
    ["the operator", (id: number) => ({ path: `/api/v1/operator/keys/${id}/deactivate`, headers: { "x-operator-token": OPERATOR_TOKEN } })],
  ])(
    "refuses it from the next request on when %s deactivates it, its NOTIFY still held back",
    async ([_who, deactivation], { keyListener: proxy, deciding, other, owner }) => {
      proxy.hold();
      const { id, key } = await cachedKeyOnBothReplicas({ deciding, other, owner });
      const { path, headers } = deactivation(id, key, owner.key);
      expect((await call(deciding.url, "POST", path, headers)).status).toBe(200);
      expect(await call(deciding.url, "GET", "/api/v1/keys", as(key))).toEqual({ status: 401, body: { message: INVALID_KEY_MESSAGE } });
    },
  );

  it("refuses it at once when it was already deactivated elsewhere (its NOTIFY missed) and is deactivated again", async ({
    keyListener: proxy,
    deciding,
    other,
    owner,
    database,
  }) => {
    proxy.hold();
    const { id, key } = await cachedKeyOnBothReplicas({ deciding, other, owner });
    await runAdminCli(database.connectionString, ["keys", "deactivate", "--id", String(id)]);
    expect((await call(deciding.url, "GET", "/api/v1/keys", as(key))).status).toBe(200); // the stale cached row
    expect((await call(deciding.url, "POST", `/api/v1/keys/${id}/deactivate`, as(owner.key))).status).toBe(200);
    expect((await call(deciding.url, "GET", "/api/v1/keys", as(key))).status).toBe(401);
  });
});

describe("a replica that never receives the NOTIFY", () => {
  it(`refuses the key within ${OTHER_REPLICA_BOUND_MS} ms (the default API_KEY_CACHE_TTL_MS)`, async ({
    keyListener: proxy,
    deciding,
    other,
    owner,
  }) => {
    proxy.hold();
    const { id, key } = await cachedKeyOnBothReplicas({ deciding, other, owner });
    const deactivatedAt = Date.now();
    expect((await call(deciding.url, "POST", `/api/v1/keys/${id}/deactivate`, as(owner.key))).status).toBe(200);
    await expect
      .poll(async () => (await call(other.url, "GET", "/api/v1/keys", as(key))).status, {
        timeout: OTHER_REPLICA_BOUND_MS + 1_000,
        interval: 100,
      })
      .toBe(401);
    expect(Date.now() - deactivatedAt).toBeLessThanOrEqual(OTHER_REPLICA_BOUND_MS + 250);
  });
});
