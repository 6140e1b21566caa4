/**
 * Gateway overhead (issue: foundation). The same internal endpoint called (a) directly, (b) through
 * a bare node:http + undici pass-through (the floor any Node hop pays here) and (c) through the
 * gateway with a valid key, all in this run. Targets on a 2-core machine (issue 21): at concurrency 1
 * the gateway adds at most 0.2 ms per request over (a); at concurrency 50 it keeps at least 60% of
 * (b)'s requests per second. Also: the gateway's memory while a 20 MB body passes, and a valid
 * key's latency while strangers flood the gateway with random keys (each a Postgres lookup)
 * against its latency under an equal flood of the valid key (all cached): the key cache must
 * not be flushable by strangers.
 */
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { createTestDatabase, freePort, spawnService, waitForHttp, type SpawnedService } from "@chaingate/testing";
import { load, ROOT, startScript, stopAll, type LoadResult } from "../support/processes.ts";

const WARMUP_SECONDS = 2;
const MEASURE_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** Targets are measured interleaved, round after round, and the median kept: a drift in the
 * machine's state (other processes, CPU frequency) then touches every target alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MB = 1024 * 1024;
const FLOOD_CONNECTIONS = 20;
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** A well-formed key nobody owns (40 alphanumerics): every one is a cache miss and a lookup. */
const strangerKey = () => [...randomBytes(40)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");

type Targets = Record<"direct" | "bare" | "gateway", string>;
type FloodResult = { valid: LoadResult; flood: LoadResult };

/** The internal endpoint, the bare pass-through and the gateway, each as its own process. */
async function startTargets(databaseUrl: string) {
  const [internalPort, barePort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const internal = startScript(fileURLToPath(new URL("../support/internal-endpoint.ts", import.meta.url)), { PORT: String(internalPort) });
  const bare = startScript(fileURLToPath(new URL("../support/bare-proxy.ts", import.meta.url)), {
    PORT: String(barePort),
    UPSTREAM_URL: `http://127.0.0.1:${internalPort}`,
  });
  const gateway = spawnService(
    `${ROOT}services/gateway`,
    {
      PORT: String(gatewayPort),
      DATABASE_URL: databaseUrl,
      BTC_PROXY_URL: `http://127.0.0.1:${internalPort}`,
      // Measured as deployed: metrics counted and the internal token sent on every request.
      METRICS_PORT: "0",
      INTERNAL_TOKEN: randomBytes(24).toString("hex"),
    },
    { captureOutput: false },
  );
  return { internal, bare, gateway, gatewayPort, internalPort, barePort };
}

/** Each target at `connections`, after a warm-up: the median of ROUNDS interleaved rounds, errors summed over all. */
async function measureTargets(targets: Targets, connections: number, headers: Record<string, string>): Promise<Record<string, LoadResult>> {
  const samples: Record<string, LoadResult[]> = {};
  for (const url of Object.values(targets)) await load(url, { connections, durationSeconds: WARMUP_SECONDS, headers });
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(targets))
      (samples[name] ??= []).push(await load(url, { connections, durationSeconds: MEASURE_SECONDS, headers }));
  }
  const results: Record<string, LoadResult> = {};
  for (const [name, list] of Object.entries(samples)) {
    const sorted = [...list].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    results[name] = { ...median, errors: list.reduce((n, r) => n + r.errors, 0), non2xx: list.reduce((n, r) => n + r.non2xx, 0) };
  }
  return results;
}

/** The latency (c=1) and throughput (c=50) targets; prints the table. Also the gateway's failed requests. */
async function benchOverhead(targets: Targets, headers: Record<string, string>) {
  const serial = await measureTargets(targets, 1, headers);
  const concurrent = await measureTargets(targets, 50, headers);

  console.log(
    `\n== gateway overhead (same run, same internal endpoint; median of ${ROUNDS} interleaved rounds of ${MEASURE_SECONDS} s) ==`,
  );
  console.log("target       c=1 ms/req   c=1 req/s   c=50 req/s   errors/non-2xx");
  for (const name of Object.keys(targets)) {
    const s = serial[name]!;
    const c = concurrent[name]!;
    console.log(
      `${name.padEnd(12)} ${s.meanMs.toFixed(3).padStart(10)}   ${s.requestsPerSecond.toFixed(0).padStart(9)}   ${c.requestsPerSecond.toFixed(0).padStart(10)}   ${s.errors + c.errors}/${s.non2xx + c.non2xx}`,
    );
  }
  const addedMs = serial.gateway!.meanMs - serial.direct!.meanMs;
  const bareAddedMs = serial.bare!.meanMs - serial.direct!.meanMs;
  const keptOfBare = concurrent.gateway!.requestsPerSecond / concurrent.bare!.requestsPerSecond;
  const keptOfDirect = concurrent.gateway!.requestsPerSecond / concurrent.direct!.requestsPerSecond;
  const failures = serial.gateway!.non2xx + concurrent.gateway!.non2xx + serial.gateway!.errors + concurrent.gateway!.errors;
  const latencyOk = addedMs <= 0.2;
  const throughputOk = keptOfBare >= 0.6;
  console.log(
    `c=1:  gateway adds ${addedMs.toFixed(3)} ms/request over direct (bare hop adds ${bareAddedMs.toFixed(3)} ms)   target <= 0.200 ms   ${latencyOk ? "PASS" : "FAIL"}`,
  );
  console.log(
    `c=50: gateway keeps ${(keptOfBare * 100).toFixed(0)}% of the bare hop's req/s (${(keptOfDirect * 100).toFixed(0)}% of direct)   target >= 60%   ${throughputOk ? "PASS" : "FAIL"}`,
  );
  return { latencyOk, throughputOk, failures };
}

/** Memory: a 20 MB body through the gateway; the first large body in a process sizes its heap. */
async function benchBodyMemory(gateway: SpawnedService, gatewayPort: number, headers: Record<string, string>): Promise<boolean> {
  const big = `http://127.0.0.1:${gatewayPort}/api/v1/btc/big`;
  const transfer = async () => {
    gateway.resetPeakMemory();
    const before = gateway.memory().rss;
    const response = await fetch(big, { headers });
    let bytes = 0;
    for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
    return { bytes, growthMb: (gateway.memory().peakRss - before) / MB };
  };
  const first = await transfer();
  const later = [await transfer(), await transfer()];
  const memoryOk = first.bytes === 20 * MB && Math.max(first.growthMb, ...later.map((l) => l.growthMb)) < 30;
  console.log(
    `20 MB body: gateway peak RSS growth ${first.growthMb.toFixed(1)} MB (first large body), ${later.map((l) => l.growthMb.toFixed(1)).join(" / ")} MB (next two)   target < 30 MB   ${memoryOk ? "PASS" : "FAIL"}`,
  );
  return memoryOk;
}

/** A valid key at c=1 while FLOOD_CONNECTIONS clients flood the gateway with `floodHeaders`. */
async function underFlood(
  gatewayUrl: string,
  headers: Record<string, string>,
  floodHeaders: () => Record<string, string>,
): Promise<FloodResult> {
  const flood = load(gatewayUrl, {
    connections: FLOOD_CONNECTIONS,
    durationSeconds: MEASURE_SECONDS + 1,
    perRequestHeaders: floodHeaders,
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const valid = await load(gatewayUrl, { connections: 1, durationSeconds: MEASURE_SECONDS, headers });
  return { valid, flood: await flood };
}

/** A valid key's latency under a flood of random keys against under a flood of the valid key itself. */
async function benchKeyFlood(gatewayUrl: string, headers: Record<string, string>): Promise<boolean> {
  const floodSamples: Array<{ strangers: FloodResult; friends: FloodResult }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    floodSamples.push({
      strangers: await underFlood(gatewayUrl, headers, () => ({ "x-api-key": strangerKey() })),
      friends: await underFlood(gatewayUrl, headers, () => headers),
    });
  }
  const ratios = floodSamples.map((s) => s.strangers.valid.meanMs / s.friends.valid.meanMs).sort((a, b) => a - b);
  const floodRatio = ratios[Math.floor(ratios.length / 2)]!;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  // Every valid request must pass; the latency ratio is reported (on two cores the strangers'
  // Postgres lookups take CPU from the gateway whatever the cache does).
  const floodOk = floodSamples.every((s) => s.strangers.valid.non2xx === 0 && s.strangers.valid.errors === 0);
  console.log(
    `random-key flood (${FLOOD_CONNECTIONS} clients, ${median(floodSamples.map((s) => s.strangers.flood.requestsPerSecond)).toFixed(0)} req/s of 401s): valid key ${median(floodSamples.map((s) => s.strangers.valid.meanMs)).toFixed(3)} ms/req vs ${median(floodSamples.map((s) => s.friends.valid.meanMs)).toFixed(3)} ms/req under an equal flood of a cached key: ratio ${floodRatio.toFixed(2)}; valid requests all 200   ${floodOk ? "PASS" : "FAIL"}`,
  );
  return floodOk;
}

export async function benchGatewayOverhead(): Promise<boolean> {
  const database = await createTestDatabase();
  const { internal, bare, gateway, internalPort, barePort, gatewayPort } = await startTargets(database.connectionString);
  try {
    const path = "/api/v1/btc/health";
    const targets: Targets = {
      direct: `http://127.0.0.1:${internalPort}${path}`,
      bare: `http://127.0.0.1:${barePort}${path}`,
      gateway: `http://127.0.0.1:${gatewayPort}${path}`,
    };
    await Promise.all(Object.values(targets).map((url) => waitForHttp(url)));
    const { key } = await createAccountWithKey(database.connectionString, "bench");
    const headers = { "x-api-key": key, accept: "application/json" };

    const { latencyOk, throughputOk, failures } = await benchOverhead(targets, headers);
    const memoryOk = await benchBodyMemory(gateway, gatewayPort, headers);
    // A valid key at c=1 while FLOOD_CONNECTIONS clients flood: random keys vs the valid key itself.
    const floodOk = await benchKeyFlood(targets.gateway, headers);
    if (failures) console.log(`gateway answered ${failures} requests with errors or non-2xx: FAIL`);
    return latencyOk && throughputOk && memoryOk && floodOk && failures === 0;
  } finally {
    await gateway.stop();
    await stopAll([internal, bare]);
    await database.drop();
  }
}
