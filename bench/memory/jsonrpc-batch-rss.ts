/**
 * Bounded memory of a JSON-RPC batch answer (the eth-proxy's `POST /api/v1/eth/jsonrpc`): an
 * eth-proxy and a gateway as separate processes launched with their start scripts, in front of
 * Anvil; RSS read from /proc (peak = VmHWM, reset before each step). Three parallel batches of
 * 1,000 `eth_call`s, each answering 64 KiB (a state override puts code that returns 64 KiB at the
 * called address): about 131 MB (125 MiB) of answer per batch, sent to the node in chunks of
 * ETH_RPC_MAX_BATCH (100).
 * - Clients that read as fast as they can, and clients that read the status line, then nothing for
 *   PAUSE_MS, then the rest (the proxy must not read ahead of them).
 * - Baseline in the same run: the same three batches of calls answering 32 bytes (about 0.1 MB each).
 * Target: the big batches grow each process's peak RSS by less than 64 MB.
 *
 * BENCH_JSONRPC_CALLS (1,000), BENCH_JSONRPC_PARALLEL (3), BENCH_JSONRPC_PAUSE_MS (3,000).
 */
import http from "node:http";
import { createTestDatabase, startAnvil, type SpawnedService } from "@chaingate/testing";
import { startEthProxyBehindGateway } from "../support/eth-proxy-behind-gateway.ts";

const MB = 1024 * 1024;
const CALLS = Number(process.env.BENCH_JSONRPC_CALLS ?? 1_000);
const PARALLEL = Number(process.env.BENCH_JSONRPC_PARALLEL ?? 3);
const PAUSE_MS = Number(process.env.BENCH_JSONRPC_PAUSE_MS ?? 3_000);
const TARGET_MB = 64;
/** Where the state override puts the code: an address with nothing of its own. */
const CALLED = "0x00000000000000000000000000000000c0de6400";
/** PUSH3 <bytes> PUSH1 0 RETURN: returns that many bytes of (zeroed) memory. */
const returning = (bytes: number) => `0x62${bytes.toString(16).padStart(6, "0")}6000f3`;
const BIG_RESULT_BYTES = 64 * 1024;
const SMALL_RESULT_BYTES = 32;

const batchOf = (resultBytes: number) =>
  JSON.stringify(
    Array.from({ length: CALLS }, (_, id) => ({
      jsonrpc: "2.0",
      id,
      method: "eth_call",
      params: [{ to: CALLED }, "latest", { [CALLED]: { code: returning(resultBytes) } }],
    })),
  );

interface Drained {
  status: number;
  bytes: number;
  /** Answers counted in the stream (`"id":` occurrences), without holding it. */
  envelopes: number;
  wellFormed: boolean;
}

/** POSTs `body` and reads the answer without holding it, after `pauseMs` of reading nothing. */
function postAndDrain(url: string, key: string, body: string, pauseMs: number): Promise<Drained> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      agent: false,
      headers: { "x-api-key": key, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    request.on("error", reject);
    request.on("response", (response) => {
      response.pause();
      let bytes = 0;
      let envelopes = 0;
      let carry = "";
      let first = "";
      response.on("data", (chunk: Buffer) => {
        const text = carry + chunk.toString("latin1");
        if (bytes === 0) first = text.trimStart()[0] ?? "";
        envelopes += text.split('"id":').length - 1;
        // An `"id":` split across two chunks is counted once, in the next one.
        carry = text.slice(-4);
        envelopes -= carry.split('"id":').length - 1;
        bytes += chunk.length;
      });
      response.on("error", reject);
      response.on("end", () => {
        envelopes += carry.split('"id":').length - 1;
        resolve({ status: response.statusCode!, bytes, envelopes, wellFormed: first === "[" && carry.trimEnd().endsWith("]") });
      });
      setTimeout(() => response.resume(), pauseMs);
    });
    request.end(body);
  });
}

/** Peak RSS growth of each process while `work` runs. */
async function measure<T>(processes: Record<string, SpawnedService>, work: () => Promise<T>) {
  const before: Record<string, number> = {};
  for (const [name, service] of Object.entries(processes)) {
    service.resetPeakMemory();
    before[name] = service.memory().rss;
  }
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const growthMb = Object.fromEntries(
    Object.entries(processes).map(([name, service]) => [name, (service.memory().peakRss - before[name]!) / MB]),
  );
  return { result, seconds, growthMb };
}

export async function benchJsonRpcBatchRss(): Promise<boolean> {
  const database = await createTestDatabase();
  const node = await startAnvil();
  const services: SpawnedService[] = [];
  try {
    console.log(`\n== JSON-RPC batch RSS: ${PARALLEL} parallel batches of ${CALLS} eth_calls through the gateway and the eth-proxy ...`);
    const { proxy, gateway, gatewayUrl, key } = await startEthProxyBehindGateway(node.url, database.connectionString, {
      ACCESS_LOG: "false",
    });
    services.push(proxy, gateway);
    const url = `${gatewayUrl}/api/v1/eth/jsonrpc`;
    const processes = { "eth-proxy": proxy, gateway };
    const big = batchOf(BIG_RESULT_BYTES);
    const small = batchOf(SMALL_RESULT_BYTES);
    const parallel = (body: string, pauseMs: number) =>
      measure(processes, () => Promise.all(Array.from({ length: PARALLEL }, () => postAndDrain(url, key, body, pauseMs))));

    // Warm-up: the first large answers a process handles size its heap and buffers once.
    await postAndDrain(url, key, big, 0);
    const baseline = await parallel(small, 0);
    const runs = [
      ["clients reading at once", await parallel(big, 0)],
      [`clients pausing ${PAUSE_MS} ms first`, await parallel(big, PAUSE_MS)],
    ] as const;

    const complete = (run: typeof baseline) =>
      run.result.every((answer) => answer.status === 200 && answer.envelopes === CALLS && answer.wellFormed);
    const describe = (run: typeof baseline) => {
      const answers = complete(run) ? "all complete" : `INCOMPLETE ${JSON.stringify(run.result)}`;
      const growth = Object.entries(run.growthMb)
        .map(([name, mb]) => {
          const ratio =
            run === baseline ? "" : ` (${(mb / Math.max(baseline.growthMb[name]!, 1)).toFixed(1)}x the baseline's, floored at 1 MB)`;
          return `${name} +${mb.toFixed(1)} MB${ratio}`;
        })
        .join(", ");
      return `${(run.result[0]!.bytes / MB).toFixed(1)} MB per answer, ${answers}, ${run.seconds.toFixed(1)} s; peak RSS growth ${growth}`;
    };
    console.log(`${PARALLEL} × ${CALLS} calls answering ${SMALL_RESULT_BYTES} bytes (baseline): ${describe(baseline)}`);
    let passed = complete(baseline);
    for (const [label, run] of runs) {
      const ok = complete(run) && Object.values(run.growthMb).every((mb) => mb < TARGET_MB);
      passed &&= ok;
      console.log(
        `${PARALLEL} × ${CALLS} calls answering 64 KiB, ${label}: ${describe(run)}   target < ${TARGET_MB} MB each   ${ok ? "PASS" : "FAIL"}`,
      );
    }
    return passed;
  } finally {
    await Promise.all(services.map((service) => service.stop()));
    await node.stop();
    await database.drop();
  }
}
