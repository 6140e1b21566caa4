/**
 * Bounded memory (issue 21), with real gateway and delivery processes (their start scripts) over
 * real Postgres and NATS; RSS read from /proc (peak = VmHWM, reset before each step).
 * - Gateway: 200 concurrent 16 MB POSTs to /api/v1/webhooks (route limit 3 MiB), with a declared
 *   Content-Length (413 before any byte is read) and chunked (read up to the limit, at most
 *   MAX_BUFFERED_BODY_BYTES at once, the rest 503 before reading). Baseline in the same run: 200
 *   concurrent 4 MB POSTs, refused the same way: memory that grew with the body size would show
 *   as the difference (a per-body cost would be 200 × 12 MB).
 * - A 1,000,000-address webhook read through the gateway: the list (`per_page=500`), every address
 *   page (`per_page=10000`), and the whole webhook (`GET /webhooks/{id}`, streamed); delivery's and
 *   the gateway's peak RSS growth. Baseline in the same run: the same reads of a 1,000-address webhook.
 *
 * BENCH_RSS_ADDRESSES (1,000,000), BENCH_RSS_POSTS (200).
 */
import http from "node:http";
import { randomBytes } from "node:crypto";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { createTestDatabase, freePort, spawnService, stopChild, waitForHttp, type SpawnedService } from "@chaingate/testing";
// By path: bench/package.json does not list the delivery service or its dependencies.
import { analyzeAddresses, insertManyAddresses, waitForRegistryOutbox } from "../support/delivery-tables.ts";
import { ROOT } from "../support/processes.ts";

const MB = 1024 * 1024;
const POSTS = Number(process.env.BENCH_RSS_POSTS ?? 200);
const BIG_BODY_BYTES = 16 * MB;
const BASELINE_BODY_BYTES = 4 * MB;
const MAX_BUFFERED_BODY_BYTES = 256 * MB;
const ADDRESSES = Number(process.env.BENCH_RSS_ADDRESSES ?? 1_000_000);
const BASELINE_ADDRESSES = 1_000;
const SMALL_WEBHOOKS = 9;
const PAGE_SIZE = 10_000;
/** Targets: 16 MB bodies cost the gateway no more than this over 4 MB ones; reads of the big webhook no more than this over the small one. */
const DECLARED_TARGET_MB = 16;
const CHUNKED_TARGET_MB = MAX_BUFFERED_BODY_BYTES / MB + 64;
const READ_TARGET_MB = 50;
const RELAY_TIMEOUT_MS = 300_000;

const mb = (bytes: number) => (bytes / MB).toFixed(1);

/** Peak RSS growth of each process while `work` runs. */
async function measure<T>(
  processes: Record<string, SpawnedService>,
  work: () => Promise<T>,
): Promise<{ result: T; growthMb: Record<string, number> }> {
  const before: Record<string, number> = {};
  for (const [name, process] of Object.entries(processes)) {
    process.resetPeakMemory();
    before[name] = process.memory().rss;
  }
  const result = await work();
  const growthMb = Object.fromEntries(
    Object.entries(processes).map(([name, process]) => [name, (process.memory().peakRss - before[name]!) / MB]),
  );
  return { result, growthMb };
}

/** POSTs `body` (declared length, or chunked) and resolves with the status, or "reset" when the connection closed first. */
function post(url: string, key: string, body: Buffer, chunked: boolean): Promise<number | "reset"> {
  return new Promise((resolve) => {
    const request = http.request(url, {
      method: "POST",
      agent: false,
      headers: {
        "x-api-key": key,
        "content-type": "application/json",
        ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(body.length) }),
      },
    });
    let settled = false;
    const settle = (outcome: number | "reset") => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    request.on("response", (response) => {
      response.resume();
      settle(response.statusCode!);
    });
    request.on("error", () => settle("reset"));
    request.end(body);
  });
}

const tally = (outcomes: Array<number | "reset">) =>
  Object.entries(outcomes.reduce<Record<string, number>>((counts, outcome) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }), {}))
    .map(([outcome, count]) => `${count}× ${outcome}`)
    .join(", ");

/** Reads an answer without holding it: its size in bytes. */
async function drain(url: string, key: string): Promise<{ status: number; bytes: number }> {
  const response = await fetch(url, { headers: { "x-api-key": key, accept: "application/json" } });
  let bytes = 0;
  for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
  return { status: response.status, bytes };
}

/** The delivery service and the gateway in front of it, sharing an internal token. */
async function startDeliveryBehindGateway(databaseUrl: string) {
  const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const [deliveryPort, gatewayPort] = [await freePort(), await freePort()];
  const internalToken = randomBytes(24).toString("hex");
  const delivery = spawnService(
    `${ROOT}services/delivery`,
    {
      PORT: String(deliveryPort),
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      NATS_NAMESPACE: `rss${randomBytes(3).toString("hex")}`,
      INTERNAL_TOKEN: internalToken,
      LOG_LEVEL: "warn",
    },
    { captureOutput: false },
  );
  const gateway = spawnService(
    `${ROOT}services/gateway`,
    {
      PORT: String(gatewayPort),
      DATABASE_URL: databaseUrl,
      DELIVERY_URL: `http://127.0.0.1:${deliveryPort}`,
      INTERNAL_TOKEN: internalToken,
      MAX_BUFFERED_BODY_BYTES: String(MAX_BUFFERED_BODY_BYTES),
      // One key sends every body: measure the whole budget, not one account's share of it.
      MAX_BUFFERED_BODY_PERCENT_PER_ACCOUNT: "100",
      ACCESS_LOG: "false",
      LOG_LEVEL: "warn",
    },
    { captureOutput: false },
  );
  return { delivery, gateway, deliveryUrl: `http://127.0.0.1:${deliveryPort}`, base: `http://127.0.0.1:${gatewayPort}` };
}

/** POSTS concurrent 16 MB POSTs, declared and chunked, against 4 MB ones: the gateway's peak RSS growth. */
async function benchLargeBodies(gateway: SpawnedService, base: string, key: string): Promise<boolean> {
  const body = (bytes: number) => Buffer.alloc(bytes, 0x20);
  const gatewayOnly = { gateway };
  const burst = (bytes: number, chunked: boolean) => {
    const payload = body(bytes);
    return measure(gatewayOnly, () =>
      Promise.all(Array.from({ length: POSTS }, () => post(`${base}/api/v1/webhooks`, key, payload, chunked))),
    );
  };
  // Warm-up: the first requests of a process size its heap.
  await burst(BIG_BODY_BYTES, false);
  const baseline = await burst(BASELINE_BODY_BYTES, false);
  const declared = await burst(BIG_BODY_BYTES, false);
  const chunked = await burst(BIG_BODY_BYTES, true);
  const overBaseline = declared.growthMb.gateway! - baseline.growthMb.gateway!;
  const declaredOk = overBaseline < DECLARED_TARGET_MB;
  const chunkedOk = chunked.growthMb.gateway! < CHUNKED_TARGET_MB;
  console.log(
    `gateway, ${POSTS} concurrent 4 MB POSTs, Content-Length declared (baseline): ${tally(baseline.result)}; peak RSS growth ${baseline.growthMb.gateway!.toFixed(1)} MB`,
  );
  console.log(
    `gateway, ${POSTS} concurrent 16 MB POSTs, Content-Length declared: ${tally(declared.result)}; peak RSS growth ${declared.growthMb.gateway!.toFixed(1)} MB (${overBaseline.toFixed(1)} MB over 4 MB bodies, ratio ${(declared.growthMb.gateway! / baseline.growthMb.gateway!).toFixed(2)}; ${(POSTS * BIG_BODY_BYTES) / MB} MB offered)   target < ${DECLARED_TARGET_MB} MB over 4 MB bodies   ${declaredOk ? "PASS" : "FAIL"}`,
  );
  console.log(
    `gateway, ${POSTS} concurrent 16 MB POSTs, chunked: ${tally(chunked.result)}; peak RSS growth ${chunked.growthMb.gateway!.toFixed(1)} MB (MAX_BUFFERED_BODY_BYTES ${MAX_BUFFERED_BODY_BYTES / MB} MB)   target < ${CHUNKED_TARGET_MB} MB   ${chunkedOk ? "PASS" : "FAIL"}`,
  );
  return declaredOk && chunkedOk;
}

/** What the webhook reads need: the gateway's base URL, the key, the database and the processes measured. */
interface WebhookReadContext {
  base: string;
  key: string;
  databaseUrl: string;
  processes: Record<"delivery" | "gateway", SpawnedService>;
}

/** A webhook through the gateway: its id. */
async function createWebhook({ base, key }: WebhookReadContext): Promise<number> {
  const response = await fetch(`${base}/api/v1/webhooks`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      coin: "ETH",
      webhook_url: "http://93.184.216.34/hook",
      addresses: [`0x${randomBytes(20).toString("hex")}`],
    }),
  });
  return ((await response.json()) as { data: { id: number } }).data.id;
}

/** Every address page of a webhook, numbered by `page=`. */
async function readByPageNumbers({ base, key }: WebhookReadContext, id: number, addresses: number) {
  const started = performance.now();
  let bytes = 0;
  const lastPage = Math.ceil(addresses / PAGE_SIZE);
  for (let page = 1; page <= lastPage; page++)
    bytes += (await drain(`${base}/api/v1/webhooks/${id}/addresses?per_page=${PAGE_SIZE}&page=${page}`, key)).bytes;
  return { bytes, pages: lastPage, seconds: (performance.now() - started) / 1000 };
}

/** Every address page of a webhook, each read on `after=` the last. */
async function readByKeyset({ base, key }: WebhookReadContext, id: number) {
  const started = performance.now();
  let bytes = 0;
  let pages = 0;
  for (let after: string | null = null; pages === 0 || after !== null; pages++) {
    const response = await fetch(
      `${base}/api/v1/webhooks/${id}/addresses?per_page=${PAGE_SIZE}${after === null ? "" : `&after=${after}`}`,
      {
        headers: { "x-api-key": key, accept: "application/json" },
      },
    );
    const text = await response.text();
    bytes += Buffer.byteLength(text);
    after = (JSON.parse(text) as { meta: { next_after: string | null } }).meta.next_after;
  }
  return { bytes, pages, seconds: (performance.now() - started) / 1000 };
}

/** A webhook of `addresses` addresses read every way (list, pages, after= pages, whole), each measured; then deleted. */
async function readWebhook(context: WebhookReadContext, addresses: number) {
  const { base, key, databaseUrl, processes } = context;
  const id = await createWebhook(context);
  await insertManyAddresses(databaseUrl, id, addresses - 1);
  await analyzeAddresses(databaseUrl);
  // Measured once the registry has published the change (its relay is not part of the read).
  await waitForRegistryOutbox(databaseUrl, RELAY_TIMEOUT_MS);
  const list = await measure(processes, () => drain(`${base}/api/v1/webhooks?per_page=500`, key));
  const pages = await measure(processes, () => readByPageNumbers(context, id, addresses));
  const keyset = await measure(processes, () => readByKeyset(context, id));
  const whole = await measure(processes, async () => {
    const started = performance.now();
    return { ...(await drain(`${base}/api/v1/webhooks/${id}`, key)), seconds: (performance.now() - started) / 1000 };
  });
  // The webhook goes, so the next reads list only their own large webhook.
  await fetch(`${base}/api/v1/webhooks/${id}`, { method: "DELETE", headers: { "x-api-key": key } });
  return { list, pages, keyset, whole };
}

type WebhookReads = Awaited<ReturnType<typeof readWebhook>>;

function reportWebhookReads(name: string, run: WebhookReads): void {
  const describe = (label: string, growth: Record<string, number>) =>
    `${label}: delivery +${growth.delivery!.toFixed(1)} MB, gateway +${growth.gateway!.toFixed(1)} MB`;
  console.log(
    `webhook of ${name}: list per_page=500 ${mb(run.list.result.bytes)} MB; ${run.pages.result.pages} address pages by page= ${mb(run.pages.result.bytes)} MB in ${run.pages.result.seconds.toFixed(1)} s, ${run.keyset.result.pages} by after= in ${run.keyset.result.seconds.toFixed(1)} s; GET /webhooks/{id} ${mb(run.whole.result.bytes)} MB in ${run.whole.result.seconds.toFixed(1)} s`,
  );
  console.log(
    `  peak RSS growth — ${describe("list", run.list.growthMb)}; ${describe("pages", run.pages.growthMb)}; ${describe("after= pages", run.keyset.growthMb)}; ${describe("whole webhook", run.whole.growthMb)}`,
  );
}

/** A 1,000,000-address webhook read, against a 1,000-address one: delivery's and the gateway's peak RSS growth. */
async function benchLargeWebhookReads(context: WebhookReadContext): Promise<boolean> {
  for (let i = 0; i < SMALL_WEBHOOKS; i++) await createWebhook(context);
  const small1k = await readWebhook(context, BASELINE_ADDRESSES);
  const large = await readWebhook(context, ADDRESSES);
  reportWebhookReads(`${BASELINE_ADDRESSES.toLocaleString("en")} addresses (baseline)`, small1k);
  reportWebhookReads(`${ADDRESSES.toLocaleString("en")} addresses`, large);
  const over = (step: "list" | "pages" | "keyset" | "whole") =>
    Math.max(...(["delivery", "gateway"] as const).map((name) => large[step].growthMb[name]! - small1k[step].growthMb[name]!));
  const readOk = Math.max(over("list"), over("pages"), over("keyset"), over("whole")) < READ_TARGET_MB;
  console.log(
    `1,000,000 vs 1,000 addresses, most peak RSS growth above the baseline: list ${over("list").toFixed(1)} MB, pages ${over("pages").toFixed(1)} MB, after= pages ${over("keyset").toFixed(1)} MB, whole webhook ${over("whole").toFixed(1)} MB   target < ${READ_TARGET_MB} MB   ${readOk ? "PASS" : "FAIL"}`,
  );
  return readOk;
}

export async function benchRssBounds(): Promise<boolean> {
  const database = await createTestDatabase();
  const { delivery, gateway, deliveryUrl, base } = await startDeliveryBehindGateway(database.connectionString);
  try {
    await Promise.all([waitForHttp(`${deliveryUrl}/healthz`, 30_000), waitForHttp(`${base}/healthz`, 30_000)]);
    const { key } = await createAccountWithKey(database.connectionString, "bench");
    // ── 200 concurrent 16 MB POSTs ──
    const bodiesOk = await benchLargeBodies(gateway, base, key);
    // ── A 1,000,000-address webhook read, against a 1,000-address one ──
    const readOk = await benchLargeWebhookReads({ base, key, databaseUrl: database.connectionString, processes: { delivery, gateway } });
    return bodiesOk && readOk;
  } finally {
    await stopChild(gateway.process);
    await stopChild(delivery.process);
    await database.drop();
  }
}
