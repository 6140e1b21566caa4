/**
 * Block streaming (issue 10: Ethereum). A Hardhat Network block with at least 500 transactions
 * (default 1,500 transfers carrying 2 kB of call data each: a block of about 8 MB of JSON), fetched with full transactions
 * (a) straight from the node and (b) through the gateway and eth-proxy, as separate processes
 * launched with their start scripts. The method of the Bitcoin block bench: targets are the
 * gateway's and the eth-proxy's peak RSS growing by less than the block's JSON size, and time to
 * first byte under 2x the direct call.
 */
import { createTestDatabase, startHardhat, type HardhatNode, type SpawnedService } from "@chaingate/testing";
import { startEthProxyBehindGateway } from "../support/eth-proxy-behind-gateway.ts";
import { judgeBlockStreaming, timeFetch } from "../support/time-fetch.ts";

const TRANSACTIONS = Math.max(500, Number(process.env.BENCH_ETH_BLOCK_TRANSACTIONS ?? 1_500));
const CALL_DATA_BYTES = 2_048;
/** Call data per transfer: makes each transaction's JSON about 4 kB larger. */
const CALL_DATA = `0x${"ab".repeat(CALL_DATA_BYTES)}`;
/** The EIP-7623 floor: 21,000 + 40 gas per non-zero call-data byte. */
const GAS_PER_TRANSFER = 21_000 + 40 * CALL_DATA_BYTES;
const CALLS_PER_BATCH = 100;

async function batch(node: HardhatNode, calls: [string, unknown[]][]): Promise<void> {
  const response = await fetch(node.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: "2.0", id, method, params }))),
  });
  const failed = ((await response.json()) as { error?: { message: string } }[]).find((answer) => answer.error);
  if (failed) throw new Error(`node refused a batched call: ${failed.error!.message}`);
}

/** Queues TRANSACTIONS transfers from the 20 dev accounts with automine off, then mines them in one block. */
async function mineBigBlock(node: HardhatNode): Promise<string> {
  await node.rpc("evm_setAutomine", [false]);
  // Hardhat's default block gas limit (60 M) holds about 580 of these: raise it for the bench block.
  await node.rpc("evm_setBlockGasLimit", [`0x${(GAS_PER_TRANSFER * (TRANSACTIONS + 1)).toString(16)}`]);
  const calls: [string, unknown[]][] = Array.from({ length: TRANSACTIONS }, (_, i) => {
    const from = node.accounts[i % node.accounts.length]!.address;
    const to = node.accounts[(i + 1) % node.accounts.length]!.address;
    return ["eth_sendTransaction", [{ from, to, value: "0x1", gas: `0x${GAS_PER_TRANSFER.toString(16)}`, data: CALL_DATA }]];
  });
  for (let i = 0; i < calls.length; i += CALLS_PER_BATCH) await batch(node, calls.slice(i, i + CALLS_PER_BATCH));
  await node.rpc("evm_mine");
  await node.rpc("evm_setAutomine", [true]);
  return node.rpc<string>("eth_blockNumber");
}

export async function benchEthBlockStreaming(): Promise<boolean> {
  const database = await createTestDatabase();
  const node = await startHardhat();
  const services: SpawnedService[] = [];
  try {
    console.log(`\n== eth block streaming: building a block with ${TRANSACTIONS} transactions ...`);
    const blockNumber = await mineBigBlock(node);
    const count = await node.rpc<string>("eth_getBlockTransactionCountByNumber", [blockNumber]);
    if (Number(count) < TRANSACTIONS) throw new Error(`block ${blockNumber} holds ${Number(count)} transactions, expected ${TRANSACTIONS}`);

    const { proxy, gateway, gatewayUrl, key } = await startEthProxyBehindGateway(node.url, database.connectionString);
    services.push(proxy, gateway);

    const direct = () =>
      timeFetch(node.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: [blockNumber, true] }),
      });
    const viaGateway = () =>
      timeFetch(`${gatewayUrl}/api/v1/eth/block/${blockNumber}?fullTransactions=true`, { headers: { "x-api-key": key } });

    return await judgeBlockStreaming(
      { proxyName: "eth-proxy", services, direct, viaGateway },
      (blockMb, directMb) =>
        `block ${Number(blockNumber)}: ${Number(count)} transactions, ${blockMb.toFixed(2)} MB of JSON (node envelope: ${directMb.toFixed(2)} MB)`,
    );
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await node.stop();
    await database.drop();
  }
}
