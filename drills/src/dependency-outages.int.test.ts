/**
 * The operator's drill (issue 9): with load running through two gateway replicas to the btc-proxy,
 * the xpub service and the delivery service (the webhook registry), with the scanner following the
 * regtest chain beside them, all real processes started with their start scripts, restart Postgres,
 * kill -9 Postgres and bring it back, restart NATS. Every process must still run; requests during
 * an outage get documented answers within the timeouts; after recovery everything succeeds; no
 * issued address is duplicated or answered without being stored; a key deactivated afterwards
 * fails on every replica at once.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { OPERATOR_TOKEN_HEADER } from "@chaingate/contracts";
import { runAdminCli, createAccountWithKey } from "@chaingate/gateway/testing";
import pg from "pg";
import { describe, expect } from "vitest";
import { startLoad, summarise, type Answer, type WindowSummary } from "./load-recorder.ts";
import { processedBlocks, waitUntilProcessed } from "./scanner-watch.ts";
import { createServiceStack, type ServiceStack } from "./service-stack.ts";
import { drillTest, PRODUCT_START_MS } from "./testing/drill-fixtures.ts";

const REPORT = fileURLToPath(new URL("../../.tmp/drills/dependency-outages.json", import.meta.url));
/** BIP84 account 0 of the "abandon ... about" mnemonic. */
const ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";
/** What a service may answer while a dependency is down (docs/operations/faults.md). */
const DOCUMENTED_OUTAGE_ANSWERS = [
  { status: 503, message: "API keys cannot be checked right now (the database is unavailable); try again later." },
  { status: 503, message: "The database is unavailable; try again later." },
];
const RECOVERY_TARGET_MS = 5_000;
/** Every replica refuses a deactivated key within API_KEY_CACHE_TTL_MS (5 s, the gateway's default); a little over it. */
const KEY_REVOCATION_BOUND_MS = 6_000;

/** The gateways serve the operator's routes too: the load reaches them. */
const OPERATOR_TOKEN = randomBytes(24).toString("hex");

/** What the drill runs: every service as a process over the file's private Postgres, NATS and litecoind, and what it registered. */
interface OutageStack {
  stack: ServiceStack;
  /** gateway-1 and gateway-2. */
  gatewayUrls: string[];
  key: string;
  xpubId: number;
  webhookId: number;
  scannerUrl: string;
}

const it = drillTest.extend<{ outageStack: OutageStack }>({
  outageStack: [
    async ({ privatePostgres: postgres, privateNats: nats, litecoind: node }, use) => {
      const stack = createServiceStack();
      const gatewayUrls: string[] = [];
      try {
        const shared = { DATABASE_URL: postgres.url, NATS_URL: nats.url };
        const xpubUrl = await stack.start("xpub", "xpub", { ...shared, BITCOIN_NETWORK: "mainnet" });
        const deliveryUrl = await stack.start("delivery", "delivery", { ...shared });
        const scannerUrl = await stack.start("scanner", "scanner", {
          ...shared,
          BTC_RPC_URL: node.rpcUrl,
          BTC_RPC_USER: node.rpcUser,
          BTC_RPC_PASSWORD: node.rpcPassword,
          SCANNER_POLL_INTERVAL_MS: "200",
        });
        const btcUrl = await stack.start("btc-proxy", "btc-proxy", {
          BTC_RPC_URL: node.rpcUrl,
          BTC_RPC_USER: node.rpcUser,
          BTC_RPC_PASSWORD: node.rpcPassword,
        });
        for (const replica of ["gateway-1", "gateway-2"]) {
          gatewayUrls.push(
            await stack.start(replica, "gateway", {
              ...shared,
              XPUB_URL: xpubUrl,
              BTC_PROXY_URL: btcUrl,
              DELIVERY_URL: deliveryUrl,
              ACCESS_LOG: "false",
              API_KEY_LISTENER_PROBE_MS: "1000",
              DATABASE_CONNECT_TIMEOUT_MS: "1000",
              DATABASE_QUERY_TIMEOUT_MS: "3000",
              CONSOLE_OPERATOR_TOKEN: OPERATOR_TOKEN,
              // On, but far above the load: the shared limit's leases go through Postgres's outages too.
              RATE_LIMIT_REQUESTS_PER_KEY_PER_SECOND: "100000",
            }),
          );
        }
        const { key } = await createAccountWithKey(postgres.url, "drill");
        const registered = await fetch(`${gatewayUrls[0]}/api/v1/btc/xpub`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({ xpub: ZPUB }),
        });
        expect(registered.status).toBe(201);
        const xpubId = ((await registered.json()) as { id: number }).id;
        const webhook = await fetch(`${gatewayUrls[0]}/api/v1/webhooks`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({
            coin: "BTC",
            webhook_url: "http://93.184.216.34/hook",
            addresses: ["bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"],
          }),
        });
        const created = (await webhook.json()) as { data: { id: number } };
        expect({ status: webhook.status, created }).toEqual({ status: 201, created: expect.anything() });
        await use({ stack, gatewayUrls, key, xpubId, webhookId: created.data.id, scannerUrl });
      } finally {
        await stack.stop();
      }
    },
    { scope: "file" },
  ],
});

function isDocumented(answer: Answer): boolean {
  const message = (answer.body as { message?: unknown } | undefined)?.message;
  return DOCUMENTED_OUTAGE_ANSWERS.some((d) => d.status === answer.status && d.message === message);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Summarises the answers before the first fault (the baseline) and from each fault to the next,
 * writes them to REPORT and prints them as a table.
 */
function reportWindows(
  answers: Answer[],
  faults: { name: string; start: number; end: number }[],
): { baseline: WindowSummary; report: Record<string, WindowSummary & { faultMs: number }> } {
  const report: Record<string, WindowSummary & { faultMs: number }> = {};
  faults.forEach((f, i) => {
    const until = faults[i + 1]?.start ?? Infinity;
    report[f.name] = { ...summarise(answers, f.start, until, f.end, isDocumented), faultMs: f.end - f.start };
  });
  const baseline = summarise(answers, 0, faults[0]!.start, 0, isDocumented);
  mkdirSync(new URL(".", `file://${REPORT}`), { recursive: true });
  writeFileSync(
    REPORT,
    JSON.stringify({ baseline, ...report }, (k, v) => (k === "undocumented" ? (v as Answer[]).slice(0, 5) : v), 2),
  );
  // The drill's report (also written to .tmp/drills/): the closing note quotes it.
  process.stdout.write(
    [["window", "requests", "ok", "documented errors", "undocumented", "unanswered", "fault ms", "recovery ms"].join(" | ")]
      .concat(
        Object.entries({ baseline: { ...baseline, faultMs: 0 }, ...report }).map(([name, s]) =>
          [name, s.sent, s.ok, JSON.stringify(s.documentedErrors), s.undocumented.length, s.unanswered, s.faultMs, s.recoveryMs].join(
            " | ",
          ),
        ),
      )
      .join("\n") + "\n",
  );
  return { baseline, report };
}

describe("dependency outages under load (gateway ×2, btc-proxy, xpub, delivery, scanner)", () => {
  it(
    "every process outlives Postgres restarts and crashes and a NATS restart, answering only as documented and recovering within seconds",
    async ({ outageStack, privatePostgres: postgres, privateNats: nats, litecoind: node }) => {
      const { stack, gatewayUrls, key, xpubId, webhookId, scannerUrl } = outageStack;
      const headers = { "x-api-key": key, "content-type": "application/json" };
      // Every kind of route: proxied to each service, and answered by the gateway itself from its database.
      const routes: Array<{ kind: string; path: string; method?: string; headers?: Record<string, string> }> = [
        { kind: "issue", path: `/api/v1/btc/xpub/${xpubId}/address`, method: "POST" },
        { kind: "btc", path: "/api/v1/btc/block/best" },
        { kind: "webhooks", path: "/api/v1/webhooks" },
        { kind: "history", path: `/api/v1/btc/xpub/${xpubId}/addresses?per_page=5` },
        { kind: "xpubs", path: "/api/v1/btc/xpub" },
        { kind: "webhook addresses", path: `/api/v1/webhooks/${webhookId}/addresses?per_page=5` },
        { kind: "keys", path: "/api/v1/keys" },
        { kind: "usage", path: "/api/v1/usage" },
        { kind: "operator", path: "/api/v1/operator/accounts", headers: { [OPERATOR_TOKEN_HEADER]: OPERATOR_TOKEN } },
      ];
      const load = startLoad(
        (n) => {
          const route = routes[n % routes.length]!;
          const url = `${gatewayUrls[n % 2]!}${route.path}`;
          return { kind: route.kind, url, init: { method: route.method ?? "GET", headers: { ...headers, ...route.headers } } };
        },
        { workers: 6, maxPerSecond: 300 },
      );
      const faults: { name: string; start: number; end: number }[] = [];
      async function fault(name: string, act: () => Promise<void>): Promise<void> {
        const start = load.now();
        await act();
        faults.push({ name, start, end: load.now() });
        await sleep(RECOVERY_TARGET_MS + 1_000);
      }

      await sleep(2_000);
      await fault("postgres restart (fast shutdown)", () => postgres.restart());
      await fault("postgres kill -9, down 2 s", async () => {
        await postgres.kill();
        await sleep(2_000);
        await postgres.start();
      });
      await fault("nats restart", () => nats.restart());
      await load.stop();

      const { baseline, report } = reportWindows(load.answers, faults);

      // No process died.
      expect(stack.exited(), stack.exitReport()).toEqual([]);
      // The scanner follows again after the outages: blocks mined now are processed.
      const before = await processedBlocks(scannerUrl, "BTC");
      await node.mine(2);
      await waitUntilProcessed(scannerUrl, "BTC", before, 2);
      expect(baseline.ok).toBe(baseline.sent);
      for (const [name, summary] of Object.entries(report)) {
        expect({ name, undocumented: summary.undocumented }).toEqual({ name, undocumented: [] });
        expect({ name, unanswered: summary.unanswered }).toEqual({ name, unanswered: 0 });
        expect(summary.recoveryMs).toBeLessThan(RECOVERY_TARGET_MS);
        expect(summary.ok).toBeGreaterThan(0);
      }

      // Every address answered was stored, none twice.
      const answered = load.answers
        .filter((a) => a.kind === "issue" && a.status === 201)
        .map((a) => a.body as { address: string; index: number });
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      const { rows } = await client.query<{ index: number; address: string }>(
        "select index, address from xpub.issued_addresses where key_id = $1",
        [xpubId],
      );
      // Every issued address reaches JetStream (address.issued) despite the outages: the outbox drains.
      await expect
        .poll(
          async () =>
            Number(
              (await client.query<{ n: string }>("select count(*) as n from xpub.issued_addresses where published_at is null")).rows[0]!.n,
            ),
          { timeout: 20_000 },
        )
        .toBe(0);
      await client.end();
      expect(new Set(rows.map((r) => r.index)).size).toBe(rows.length);
      expect(new Set(rows.map((r) => r.address)).size).toBe(rows.length);
      const stored = new Map(rows.map((r) => [r.index, r.address]));
      for (const issued of answered) expect(stored.get(issued.index)).toBe(issued.address);
      expect(new Set(answered.map((a) => a.index)).size).toBe(answered.length);
    },
    120_000 + PRODUCT_START_MS,
  );

  it(
    "a key deactivated after recovery is refused by every gateway replica within the documented bound",
    {
      timeout: 60_000 + PRODUCT_START_MS,
    },
    async ({ outageStack: { gatewayUrls }, privatePostgres: postgres }) => {
      const { key: second } = await createAccountWithKey(postgres.url, "second");
      for (const url of gatewayUrls)
        expect((await fetch(`${url}/api/v1/btc/block/best`, { headers: { "x-api-key": second } })).status).toBe(200);
      await runAdminCli(postgres.url, ["keys", "deactivate", "--prefix", second.slice(0, 8)]);
      const deactivated = Date.now();
      // The CLI is no replica: each learns it by NOTIFY (milliseconds) or, lost, when its cached row expires (API_KEY_CACHE_TTL_MS, 5 s).
      const refusedAfterMs: number[] = [];
      for (const url of gatewayUrls) {
        while ((await fetch(`${url}/api/v1/btc/block/best`, { headers: { "x-api-key": second } })).status !== 401) {
          expect(Date.now() - deactivated, `${url} still accepts the deactivated key`).toBeLessThan(KEY_REVOCATION_BOUND_MS);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        refusedAfterMs.push(Date.now() - deactivated);
      }
      // Milliseconds when the NOTIFY arrived (the listeners reconnected after the outages), near the bound when it was lost.
      process.stdout.write(
        `revocation after the outages: refused by the replicas ${refusedAfterMs.join(" and ")} ms after the CLI exited\n`,
      );
    },
  );
});
