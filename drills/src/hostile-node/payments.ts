/**
 * The drill's payments, each recorded with where it went: native and internal (through a contract)
 * transfers on each chain, and where a payment is in the final best chain.
 */
import type { ScannedCoin } from "../scanner-watch.ts";
import { paidOutputs } from "../paid-outputs.ts";
import { MEMPOOL_SEEN_MS, paymentRandom, sleep, type FinalPlace, type HostileDrill, type Payment } from "./hostile-drill.ts";

function record(drill: HostileDrill, payment: Payment): void {
  drill.payments.set(`${payment.coin}:${payment.txid}:${payment.position ?? "-"}`, payment);
}

const payAddress = (drill: HostileDrill, coin: ScannedCoin) => drill.fresh[coin].shift() ?? paymentRandom.pick(drill.payable[coin]);

export async function payBtc(drill: HostileDrill, address = payAddress(drill, "BTC")): Promise<void> {
  const { node } = drill;
  const txid = await node.walletRpc<string>("sendtoaddress", [address, (paymentRandom.between(10_000, 9_999_999) / 1e8).toFixed(8)]);
  record(drill, { coin: "BTC", txid, address, position: (await paidOutputs(node, txid)).get(address)!, sentAt: Date.now() });
}

/**
 * Mempool churn: sent replaceable, left in the mempool long enough to be announced, then replaced by
 * fee (`bumpfee`, the same address paid). The original is never mined: once announced, its last
 * word must be "replaced"; the replacement is an ordinary payment.
 */
export async function payBtcReplaced(drill: HostileDrill, address = payAddress(drill, "BTC")): Promise<void> {
  const { node } = drill;
  const amount = (paymentRandom.between(10_000, 9_999_999) / 1e8).toFixed(8);
  const original = await node.walletRpc<string>("sendtoaddress", [address, amount, "", "", false, true]);
  record(drill, { coin: "BTC", txid: original, address, position: (await paidOutputs(node, original)).get(address)!, sentAt: Date.now() });
  await sleep(MEMPOOL_SEEN_MS);
  const { txid } = await node.walletRpc<{ txid: string }>("bumpfee", [original]);
  record(drill, { coin: "BTC", txid, address, position: (await paidOutputs(node, txid)).get(address)!, sentAt: Date.now() });
  drill.performed.push(`bumpfee ${original.slice(0, 12)} → ${txid.slice(0, 12)} at +${Date.now() - drill.started} ms`);
}

/** The next Ethereum payment's transaction, not yet sent. */
export function ethParams(drill: HostileDrill): { from: string; to: string; value: string } {
  return {
    from: drill.anvil.accounts[2]!.address,
    to: payAddress(drill, "ETH"),
    value: `0x${(BigInt(paymentRandom.between(1, 1_000_000)) * 1_000_000_000_007n).toString(16)}`,
  };
}

export async function payEth(drill: HostileDrill, params = ethParams(drill)): Promise<string> {
  const txid = await drill.anvil.rpc<string>("eth_sendTransaction", [params]);
  record(drill, { coin: "ETH", txid, address: params.to.toLowerCase(), position: null, sentAt: Date.now() });
  return txid;
}

/** Through the router: the top-level call pays the contract, its first call frame (position 1) the address. */
export async function payEthInternally(drill: HostileDrill): Promise<void> {
  const { to, value } = ethParams(drill);
  const txid = await drill.router.forward(to, BigInt(value), drill.anvil.accounts[2]!.address);
  record(drill, { coin: "ETH", txid, address: to.toLowerCase(), position: 1, sentAt: Date.now() });
}

export async function payTrx(drill: HostileDrill): Promise<void> {
  const address = payAddress(drill, "TRX");
  const sent = await drill.tron.tronWeb.trx.sendTransaction(address, paymentRandom.between(1_000, 2_000_000));
  record(drill, { coin: "TRX", txid: sent.transaction.txID, address, position: null, sentAt: Date.now() });
}

/** Through the simulator's forwarder: the entry at index 0 of internal_transactions pays the address. */
export async function payTrxInternally(drill: HostileDrill): Promise<void> {
  const { tron } = drill;
  const address = payAddress(drill, "TRX");
  const forwarder = await tron.tronWeb.contract().at(tron.devnode.genesis.forwarder.base58);
  const txid: string = await forwarder.forward(address).send({ callValue: paymentRandom.between(1_000, 2_000_000), feeLimit: 100_000_000 });
  record(drill, { coin: "TRX", txid, address, position: 0, sentAt: Date.now() });
}

/** Where `payment` is in the final best chain, read from the node itself; null when it is in no block. */
export async function finalPlace(
  peers: Pick<HostileDrill, "node" | "anvil" | "tron">,
  payment: Pick<Payment, "coin" | "txid">,
): Promise<FinalPlace | null> {
  const { node, anvil, tron } = peers;
  if (payment.coin === "BTC") {
    const tx = await node.walletRpc<{ confirmations: number; blockhash?: string; blocktime?: number }>("gettransaction", [payment.txid]);
    return tx.confirmations > 0 && tx.blockhash ? { block: tx.blockhash, timeMs: tx.blocktime! * 1_000 } : null;
  }
  if (payment.coin === "ETH") {
    const receipt = await anvil.rpc<{ blockHash: string } | null>("eth_getTransactionReceipt", [payment.txid]);
    if (!receipt) return null;
    const block = await anvil.rpc<{ timestamp: string }>("eth_getBlockByHash", [receipt.blockHash, false]);
    return { block: receipt.blockHash, timeMs: Number(block.timestamp) * 1_000 };
  }
  const post = async <T>(path: string, body: unknown) =>
    (await (await fetch(`${tron.devnode.url}${path}`, { method: "POST", body: JSON.stringify(body) })).json()) as T;
  const info = await post<{ blockNumber?: number; blockTimeStamp?: number }>("/wallet/gettransactioninfobyid", { value: payment.txid });
  if (info.blockNumber === undefined) return null;
  const block = await post<{ blockID: string }>("/wallet/getblockbynum", { num: info.blockNumber });
  return { block: block.blockID, timeMs: info.blockTimeStamp! };
}
