/** The drill's reorganisations, one per chain: each adds the blocks that left the best chain to `drill.left`. */
import { paymentRandom, type HostileDrill } from "./hostile-drill.ts";
import { ethParams, payBtc, payEth } from "./payments.ts";
import { scannerReaches } from "./scanner-progress.ts";

/** Bitcoin A→B→A: block a leaves for a longer branch B (its transactions mined there), then comes back and wins. */
export async function btcReorg(drill: HostileDrill): Promise<void> {
  const { node, product, left } = drill;
  await payBtc(drill);
  const [a] = await node.mine(1);
  const height = await node.rpc<number>("getblockcount");
  const sawA = await scannerReaches(product, "BTC", height);
  await node.rpc("invalidateblock", [a]);
  left.add(a!);
  const branchB = await node.mine(2, await node.walletRpc<string>("getnewaddress"));
  const sawB = await scannerReaches(product, "BTC", height + 1);
  await node.rpc("invalidateblock", [branchB[0]]);
  for (const hash of branchB) left.add(hash);
  await node.rpc("reconsiderblock", [a]);
  await node.mine(2, await node.walletRpc<string>("getnewaddress"));
  drill.performed.push(`btc A→B→A at ${height} (scanner saw A ${sawA}, B ${sawB})`);
}

/** Ethereum A→B→A: snapshot, a payment in A, revert to two empty blocks B, revert again and the same payment re-mined at A's time. */
export async function ethReorg(drill: HostileDrill): Promise<void> {
  const { anvil, product, left } = drill;
  const snapshot = await anvil.rpc<string>("evm_snapshot");
  const params = ethParams(drill);
  const txid = await payEth(drill, params);
  const receipt = await anvil.rpc<{ blockHash: string; blockNumber: string }>("eth_getTransactionReceipt", [txid]);
  const height = Number(receipt.blockNumber);
  const { timestamp } = await anvil.rpc<{ timestamp: string }>("eth_getBlockByHash", [receipt.blockHash, false]);
  const sawA = await scannerReaches(product, "ETH", height);
  await anvil.rpc("evm_revert", [snapshot]);
  left.add(receipt.blockHash);
  const beforeB = await anvil.rpc<string>("evm_snapshot");
  for (let i = 0; i < 2; i++) await anvil.rpc("evm_mine");
  const branchB = await Promise.all(
    [height, height + 1].map(async (h) => (await anvil.rpc<{ hash: string }>("eth_getBlockByNumber", [`0x${h.toString(16)}`, false])).hash),
  );
  const sawB = await scannerReaches(product, "ETH", height + 1);
  await anvil.rpc("evm_revert", [beforeB]);
  for (const hash of branchB) left.add(hash);
  await anvil.rpc("evm_setNextBlockTimestamp", [Number(timestamp)]);
  const again = await payEth(drill, params);
  const { blockHash } = await anvil.rpc<{ blockHash: string }>("eth_getTransactionReceipt", [again]);
  for (let i = 0; i < 2; i++) await anvil.rpc("evm_mine");
  drill.performed.push(
    `eth A→B→A at ${height} (same tx ${again === txid}, same block ${blockHash === receipt.blockHash}, scanner saw A ${sawA}, B ${sawB})`,
  );
}

/** Tron: the newest blocks (this round's payment among them) replaced by empty ones; their transactions mined again in the next block (requeue) or gone. */
export async function trxReorg(drill: HostileDrill, requeue: boolean): Promise<void> {
  const { tron, product, left } = drill;
  const depth = paymentRandom.between(1, 2);
  const number = ((await tron.tronWeb.trx.getCurrentBlock()) as { block_header: { raw_data: { number: number } } }).block_header.raw_data
    .number;
  const sawA = await scannerReaches(product, "TRX", number);
  const reorg = await tron.devnode.reorg(depth, { requeue });
  for (const block of reorg.dropped) left.add(block.blockID);
  await tron.devnode.produceBlock();
  drill.performed.push(
    `trx reorg depth ${depth} at ${number} (requeued ${reorg.requeued.length}, discarded ${reorg.discarded.length}, scanner saw A ${sawA})`,
  );
}
