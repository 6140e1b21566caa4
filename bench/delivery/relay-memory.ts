/**
 * The delivery's memory while its registry relay publishes a 1,000,000-address webhook to the
 * watch feed, four times over (the first relay, then three full republishes, as a level raise or
 * a new version of every bucket asks for). A relay reads 64 buckets (about 64,000 addresses) per
 * statement and publishes them together, so the process peaks well above its idle size; what
 * matters is that the memory comes back once the relay is idle and that relays do not add up.
 * Targets: 30 s after each relay the RSS is within 100 MB of the idle process's, and the repeats
 * of the same republish (relays 3 and 4) leave it within 30 MB of where relay 2 left it: memory
 * that relays kept would add up there. (Relay 1, the addresses' insert, peaks lower: its figure is
 * not comparable.)
 * BENCH_RELAY_ADDRESSES (1,000,000) sets the size, BENCH_RELAY_COUNT (4) the number of relays.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { insertManyAddresses, waitForRegistryOutbox } from "../support/delivery-tables.ts";
import { createTestDatabase, freePort, spawnService, stopChild, waitForHttp } from "@chaingate/testing";
import { ROOT } from "../support/processes.ts";

const ADDRESSES = Number(process.env.BENCH_RELAY_ADDRESSES ?? 1_000_000);
const RELAYS = Number(process.env.BENCH_RELAY_COUNT ?? 4);
/** How long the RSS is watched after a relay went idle; the lowest sample counts. */
const SETTLE_MS = 30_000;
const SAMPLE_MS = 1_000;
const RELAY_TIMEOUT_MS = 300_000;
const MB = 1e6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchRelayMemory(): Promise<boolean> {
  const database = await createTestDatabase();
  const port = await freePort();
  const delivery = spawnService(
    `${ROOT}services/delivery`,
    {
      PORT: String(port),
      DATABASE_URL: database.connectionString,
      NATS_URL: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
      NATS_NAMESPACE: `bench${randomBytes(3).toString("hex")}`,
      WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
      LOG_LEVEL: "warn",
      ACCESS_LOG: "false",
    },
    { captureOutput: false },
  );
  const client = new pg.Client({ connectionString: database.connectionString });
  /** The lowest RSS seen over SETTLE_MS. */
  const settledRss = async () => {
    let lowest = Infinity;
    for (let waited = 0; waited < SETTLE_MS; waited += SAMPLE_MS) {
      await sleep(SAMPLE_MS);
      lowest = Math.min(lowest, delivery.memory().rss);
    }
    return lowest;
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 30_000);
    await client.connect();
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-chaingate-account-id": "1" },
      body: JSON.stringify({ coin: "ETH", webhook_url: "http://127.0.0.1:9/relay", addresses: [`0x${"1".repeat(40)}`] }),
    });
    const webhookId = ((await created.json()) as { data: { id: number } }).data.id;
    await waitForRegistryOutbox(database.connectionString, RELAY_TIMEOUT_MS);
    const idle = await settledRss();
    console.log(`\n== delivery memory while relaying a ${ADDRESSES.toLocaleString("en")}-address webhook (${RELAYS} relays) ==`);
    console.log(`idle: RSS ${(idle / MB).toFixed(0)} MB`);

    const settled: number[] = [];
    for (let relay = 1; relay <= RELAYS; relay++) {
      delivery.resetPeakMemory();
      const started = performance.now();
      if (relay === 1) await insertManyAddresses(database.connectionString, webhookId, ADDRESSES);
      else {
        // Every bucket again at a new version: what a level raise asks of the relay.
        await client.query("update delivery.webhooks set version = nextval('delivery.webhook_version_seq') where id = $1", [webhookId]);
        await client.query("insert into delivery.webhook_changes (webhook_id, slot) values ($1, -1)", [webhookId]);
      }
      await waitForRegistryOutbox(database.connectionString, RELAY_TIMEOUT_MS);
      const seconds = (performance.now() - started) / 1e3;
      const peak = delivery.memory().peakRss;
      settled.push(await settledRss());
      console.log(
        `relay ${relay}: ${seconds.toFixed(1)} s, peak RSS ${(peak / MB).toFixed(0)} MB, ${SETTLE_MS / 1e3} s later ${(settled.at(-1)! / MB).toFixed(0)} MB (+${((settled.at(-1)! - idle) / MB).toFixed(0)} MB over idle)`,
      );
    }
    const worstOverIdle = Math.max(...settled) - idle;
    const growth = Math.max(...settled.slice(2)) - settled[1]!;
    const settles = worstOverIdle < 100 * MB;
    const noGrowth = growth < 30 * MB;
    console.log(
      `after each relay, at most +${(worstOverIdle / MB).toFixed(0)} MB over idle   target < 100 MB   ${settles ? "PASS" : "FAIL"}`,
    );
    console.log(
      `relays 3-${RELAYS} vs relay 2 (the same republish), settled: at most ${growth >= 0 ? "+" : ""}${(growth / MB).toFixed(0)} MB   target < 30 MB   ${noGrowth ? "PASS" : "FAIL"}`,
    );
    return settles && noGrowth;
  } finally {
    await client.end().catch(() => {});
    await stopChild(delivery.process);
    await database.drop();
  }
}
