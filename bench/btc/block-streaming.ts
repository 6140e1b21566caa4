/**
 * Block streaming (issue: Bitcoin). A regtest block with thousands of transactions, fetched at
 * verbosity 2 (a) straight from the node and (b) through the gateway and btc-proxy, as separate
 * processes launched with their start scripts. Targets: the gateway's and the btc-proxy's peak
 * RSS grow by less than the block's JSON size; time to first byte stays under 2x the direct call.
 */
import { createAccountWithKey } from "@chaingate/gateway/testing";
import {
  createTestDatabase,
  freePort,
  spawnService,
  startLitecoindRegtest,
  waitForHttp,
  type LitecoindRegtest,
  type SpawnedService,
} from "@chaingate/testing";
import { ROOT } from "../support/processes.ts";
import { judgeBlockStreaming, timeFetch } from "../support/time-fetch.ts";

const TRANSACTIONS = Number(process.env.BENCH_BLOCK_TRANSACTIONS ?? 8_000);
/** Outputs per fan-out transaction: keeps each under the 100 kvB standardness limit. */
const FANOUT_OUTPUTS = 2_000;

/** One JSON-RPC batch to the node (the regtest helper sends single calls). */
async function batch<T>(node: LitecoindRegtest, calls: [string, unknown[]][], wallet = true): Promise<T[]> {
  const url = wallet ? `${node.rpcUrl}/wallet/${node.walletName}` : node.rpcUrl;
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${node.rpcUser}:${node.rpcPassword}`).toString("base64")}` },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: "1.0", id, method, params }))),
  });
  const answers = (await response.json()) as { id: number; result: T; error: { message: string } | null }[];
  const failed = answers.find((a) => a.error);
  if (failed) throw new Error(`node refused a batched call: ${failed.error!.message}`);
  return answers.sort((a, b) => a.id - b.id).map((a) => a.result);
}

/** Fans transactions out to N outputs, then spends each in its own transaction: one block of N+1. */
async function mineBigBlock(node: LitecoindRegtest): Promise<number> {
  const addresses = await batch<string>(
    node,
    Array.from({ length: TRANSACTIONS }, () => ["getnewaddress", []]),
  );
  const fanouts = new Set<string>();
  for (let i = 0; i < addresses.length; i += FANOUT_OUTPUTS) {
    const chunk = addresses.slice(i, i + FANOUT_OUTPUTS);
    fanouts.add(await node.walletRpc<string>("sendmany", ["", Object.fromEntries(chunk.map((a) => [a, 0.01]))]));
  }
  await node.mine(1);
  const outputs = (
    await node.walletRpc<{ txid: string; vout: number; address: string }[]>("listunspent", [1, 9_999_999, addresses])
  ).filter((u) => fanouts.has(u.txid));
  const raws = await batch<string>(
    node,
    outputs.map((u) => ["createrawtransaction", [[{ txid: u.txid, vout: u.vout }], { [u.address]: 0.0099 }]]),
  );
  const signed = await batch<{ hex: string }>(
    node,
    raws.map((raw) => ["signrawtransactionwithwallet", [raw]]),
  );
  await batch(
    node,
    signed.map((s) => ["sendrawtransaction", [s.hex]]),
    false,
  );
  await node.mine(1);
  return node.rpc<number>("getblockcount");
}

export async function benchBlockStreaming(): Promise<boolean> {
  const database = await createTestDatabase();
  const node = await startLitecoindRegtest();
  const services: SpawnedService[] = [];
  try {
    // Coinbases mature after 100 blocks; each fan-out spends 0.01 per output (20 per 2000).
    await node.mine(100 + Math.ceil(TRANSACTIONS / FANOUT_OUTPUTS) + 1);
    console.log(`\n== block streaming: building a block with ${TRANSACTIONS} transactions ...`);
    const height = await mineBigBlock(node);
    const hash = await node.rpc<string>("getblockhash", [height]);
    const nTx = (await node.rpc<{ nTx: number }>("getblockheader", [hash, true])).nTx;

    const [proxyPort, gatewayPort] = [await freePort(), await freePort()];
    const proxy = spawnService(
      `${ROOT}services/btc-proxy`,
      {
        PORT: String(proxyPort),
        BTC_RPC_URL: node.rpcUrl,
        BTC_RPC_USER: node.rpcUser,
        BTC_RPC_PASSWORD: node.rpcPassword,
        LOG_LEVEL: "warn",
      },
      { captureOutput: false },
    );
    const gateway = spawnService(
      `${ROOT}services/gateway`,
      {
        PORT: String(gatewayPort),
        DATABASE_URL: database.connectionString,
        BTC_PROXY_URL: `http://127.0.0.1:${proxyPort}`,
        LOG_LEVEL: "warn",
      },
      { captureOutput: false },
    );
    services.push(proxy, gateway);
    await waitForHttp(`http://127.0.0.1:${proxyPort}/healthz`);
    await waitForHttp(`http://127.0.0.1:${gatewayPort}/healthz`);
    const { key } = await createAccountWithKey(database.connectionString, "bench");

    const direct = () =>
      timeFetch(node.rpcUrl, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${node.rpcUser}:${node.rpcPassword}`).toString("base64")}` },
        body: JSON.stringify({ jsonrpc: "1.0", id: 1, method: "getblock", params: [hash, 2] }),
      });
    const viaGateway = () => timeFetch(`http://127.0.0.1:${gatewayPort}/api/v1/btc/block/${height}`, { headers: { "x-api-key": key } });

    return await judgeBlockStreaming(
      { proxyName: "btc-proxy", services, direct, viaGateway },
      (blockMb, directMb) =>
        `block ${height}: ${nTx} transactions, ${blockMb.toFixed(1)} MB of JSON (node envelope: ${directMb.toFixed(1)} MB)`,
    );
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await node.stop();
    await database.drop();
  }
}
