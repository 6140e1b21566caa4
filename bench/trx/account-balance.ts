/**
 * Tron balances (issue 11): GET /api/v1/trx/account/{address}/balance for an account holding 300
 * TRC-10 tokens, with every whitelisted TRC-20 read. The Tron simulator runs as its own process (its
 * CLI); a stand-in in front of it gives a genesis account 298 more TRC-10 tokens (the simulator
 * issues only two) and answers their metadata, forwarding everything else, and counts the calls the
 * trx-proxy makes. trx-proxy and gateway run as processes launched with their start scripts.
 *
 * Figures: latency through the gateway vs the node's raw getaccount of the same 300-token record
 * (both through the stand-in), measured in the same run; node calls per request, cold and warm.
 * Target: once the TRC-10 metadata cache is warm, one getaccount plus at most one call per
 * whitelisted TRC-20 per request.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { createTestDatabase, freePort, spawnService, stopChild, waitForHttp, type SpawnedService } from "@chaingate/testing";
import { ROOT, startScript } from "../support/processes.ts";

const TRC10_HELD = 300;
/** Ids of the stand-in's extra tokens: far from the simulator's 1000001/1000002. */
const EXTRA_TOKEN_BASE = 2_000_000;
const SAMPLES = Number(process.env.BENCH_TRX_SAMPLES ?? 100);
/** Devnode account 0 (docs/dev-chains.md: genesis, DEV ONLY). */
const HOLDER = { base58: "TDsY1sDyBHxHqxU8pEhQvXYK45CdeTV2SV", hex: "412acde11fc43f962ab418ae9ce0a1abbc1970629f" };

interface StandIn {
  url: string;
  calls: Map<string, number>;
  close(): Promise<void>;
}

/** Forwards to the simulator; adds tokens to the holder's getaccount and answers their getassetissuebyid. */
async function startStandIn(devnodeUrl: string, extraTokens: number): Promise<StandIn> {
  const calls = new Map<string, number>();
  const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void (async () => {
        const path = (request.url ?? "/").split("?")[0]!;
        calls.set(path, (calls.get(path) ?? 0) + 1);
        const body = Buffer.concat(chunks).toString("utf8");
        const parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
        if (path === "/wallet/getassetissuebyid" && Number(parsed.value) > EXTRA_TOKEN_BASE) {
          const id = String(parsed.value);
          const n = Number(id) - EXTRA_TOKEN_BASE;
          const asset = {
            owner_address: HOLDER.hex,
            name: hex(`Bench Token ${n}`),
            abbr: hex(`BT${n}`),
            total_supply: 1e15,
            precision: n % 7,
            id,
          };
          response.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(asset));
          return;
        }
        const upstream = await fetch(`${devnodeUrl}${request.url}`, {
          method: request.method,
          body: request.method === "POST" ? body : undefined,
        });
        let text = await upstream.text();
        if (path === "/wallet/getaccount" && parsed.address === HOLDER.hex) {
          const account = JSON.parse(text) as { assetV2: { key: string; value: number }[] };
          for (let n = 1; n <= extraTokens; n++) account.assetV2.push({ key: String(EXTRA_TOKEN_BASE + n), value: 1_000_000 * n });
          text = JSON.stringify(account);
        }
        response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(text);
      })().catch((error: unknown) => response.writeHead(502).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(run: () => Promise<Response>): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await run();
  const text = await response.text();
  if (response.status !== 200) throw new Error(`answered ${response.status}: ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, text };
}

export async function benchTrxBalance(): Promise<boolean> {
  const database = await createTestDatabase();
  const devnodePort = await freePort();
  const devnode = startScript(`${ROOT}peers/tron-devnode/src/bin/tron-devnode.ts`, {
    TRON_DEVNODE_PORT: String(devnodePort),
    TRON_DEVNODE_BLOCK_INTERVAL_MS: "0",
  });
  const devnodeUrl = `http://127.0.0.1:${devnodePort}`;
  const services: SpawnedService[] = [];
  let standIn: StandIn | undefined;
  try {
    await waitForHttp(`${devnodeUrl}/healthcheck`);
    const genesisTokens = (
      (await (
        await fetch(`${devnodeUrl}/wallet/getaccount`, { method: "POST", body: JSON.stringify({ address: HOLDER.hex }) })
      ).json()) as { assetV2: unknown[] }
    ).assetV2.length;
    standIn = await startStandIn(devnodeUrl, TRC10_HELD - genesisTokens);
    const [proxyPort, gatewayPort] = [await freePort(), await freePort()];
    services.push(
      spawnService(
        `${ROOT}services/trx-proxy`,
        { PORT: String(proxyPort), TRON_NODE_URL: standIn.url, LOG_LEVEL: "warn" },
        { captureOutput: false },
      ),
      spawnService(
        `${ROOT}services/gateway`,
        {
          PORT: String(gatewayPort),
          DATABASE_URL: database.connectionString,
          TRX_PROXY_URL: `http://127.0.0.1:${proxyPort}`,
          LOG_LEVEL: "warn",
        },
        { captureOutput: false },
      ),
    );
    await waitForHttp(`http://127.0.0.1:${proxyPort}/healthz`);
    await waitForHttp(`http://127.0.0.1:${gatewayPort}/healthz`);
    const { key } = await createAccountWithKey(database.connectionString, "bench");
    const gateway = `http://127.0.0.1:${gatewayPort}`;
    const viaGateway = () => fetch(`${gateway}/api/v1/trx/account/${HOLDER.base58}/balance`, { headers: { "x-api-key": key } });
    const rawGetAccount = () =>
      fetch(`${standIn!.url}/wallet/getaccount`, { method: "POST", body: JSON.stringify({ address: HOLDER.hex }) });
    const whitelist = (
      (await (await fetch(`${gateway}/api/v1/trx/tokens/trc20`, { headers: { "x-api-key": key } })).json()) as { tokens: unknown[] }
    ).tokens.length;

    console.log(`\n== trx balance: an account holding ${TRC10_HELD} TRC-10 tokens, ${whitelist} whitelisted TRC-20 ...`);
    const callsOf = () => ({
      getaccount: standIn!.calls.get("/wallet/getaccount") ?? 0,
      trc20: standIn!.calls.get("/wallet/triggerconstantcontract") ?? 0,
      metadata: standIn!.calls.get("/wallet/getassetissuebyid") ?? 0,
    });
    const delta = (before: ReturnType<typeof callsOf>, after: ReturnType<typeof callsOf>, requests: number) => ({
      getaccount: (after.getaccount - before.getaccount) / requests,
      trc20: (after.trc20 - before.trc20) / requests,
      metadata: (after.metadata - before.metadata) / requests,
    });

    const beforeCold = callsOf();
    const cold = await timed(viaGateway);
    const coldCalls = delta(beforeCold, callsOf(), 1);
    const held = Object.keys((JSON.parse(cold.text) as { trc10: Record<string, unknown> }).trc10).length;
    if (held !== TRC10_HELD) throw new Error(`the answer lists ${held} TRC-10 tokens, expected ${TRC10_HELD}`);

    const raw: number[] = [];
    const gatewayTimes: number[] = [];
    const beforeWarm = callsOf();
    for (let i = 0; i < SAMPLES; i++) {
      gatewayTimes.push((await timed(viaGateway)).ms);
      raw.push((await timed(rawGetAccount)).ms);
    }
    const warmCalls = delta(beforeWarm, callsOf(), SAMPLES);
    // The raw getaccount calls of the baseline went through the stand-in too: not the proxy's.
    warmCalls.getaccount -= 1;
    const warmTotal = warmCalls.getaccount + warmCalls.trc20 + warmCalls.metadata;
    const target = 1 + whitelist;
    const passed = warmCalls.getaccount <= 1 && warmCalls.metadata === 0 && warmTotal <= target;

    console.log(
      `answer: ${(cold.text.length / 1024).toFixed(1)} KB; raw getaccount record: ${((await (await rawGetAccount()).text()).length / 1024).toFixed(1)} KB`,
    );
    console.log(
      `cold request (empty metadata cache): ${cold.ms.toFixed(1)} ms, node calls: ${coldCalls.getaccount} getaccount, ${coldCalls.trc20} triggerconstantcontract, ${coldCalls.metadata} getassetissuebyid`,
    );
    console.log(
      `warm, median of ${SAMPLES}: node's raw getaccount ${median(raw).toFixed(2)} ms, balance through the gateway ${median(gatewayTimes).toFixed(2)} ms (${(median(gatewayTimes) / median(raw)).toFixed(2)}x)`,
    );
    console.log(
      `node calls per warm request: ${warmCalls.getaccount} getaccount + ${warmCalls.trc20} triggerconstantcontract + ${warmCalls.metadata} getassetissuebyid = ${warmTotal}   target <= ${target} (1 + ${whitelist} TRC-20)   ${passed ? "PASS" : "FAIL"}`,
    );
    return passed;
  } finally {
    for (const service of services) await service.stop();
    await standIn?.close();
    await stopChild(devnode);
    await database.drop();
  }
}
