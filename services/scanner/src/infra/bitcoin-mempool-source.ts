/**
 * A Bitcoin node's mempool for the mempool watcher (issue #29): `getrawmempool` for the txids,
 * `getrawtransaction <txid> true` for each new one (no txindex needed while it is in the mempool),
 * `getmempoolentry` for BIP125 replaceability and the fee, `gettxout` for what is mined or spent,
 * and the recent blocks to name a conflicting transaction. Amounts keep the node's decimal text.
 */
import { text as readText } from "node:stream/consumers";
import { JsonNumber, NodeRpcError, type NodeClient } from "@chaingate/node-client";
import { parseBitcoinBlockJson } from "./bitcoin-block-source.ts";
import { matchBitcoinBlock, type BitcoinTransaction } from "../domain/match-bitcoin-block.ts";
import type { MempoolSource } from "../domain/mempool/mempool-ports.ts";

/** -5: "No such mempool or blockchain transaction" / "Transaction not in mempool". */
const NOT_FOUND = -5;
/** Blocks searched, newest first, for the transaction that spent what a pending one spent. */
const CONFLICT_SEARCH_BLOCKS = 6;

export interface BitcoinMempoolTx {
  tx: BitcoinTransaction;
  /** Outpoints it spends, "txid:n". */
  spends: string[];
}

interface RawInput {
  txid?: string;
  vout?: unknown;
}
interface RawTransaction {
  txid: string;
  vin: RawInput[];
  vout: Array<{ value: unknown; n: unknown; scriptPubKey?: { address?: string; addresses?: string[] } }>;
}

const text = (value: unknown): string => (value instanceof JsonNumber ? value.text : String(value));
const num = (value: unknown): number => Number(text(value));
const outpointsOf = (vin: readonly RawInput[]) =>
  vin.filter((input) => input.txid !== undefined).map((input) => `${input.txid}:${num(input.vout)}`);

/** `address` (nodes since 22.0) or `addresses` (older), nothing else of the script. */
function scriptAddress(script: { address?: string; addresses?: string[] } | undefined): { address?: string; addresses?: string[] } {
  if (script?.address !== undefined) return { address: script.address };
  return script?.addresses ? { addresses: script.addresses } : {};
}

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof NodeRpcError && error.rpcCode === NOT_FOUND) return null;
    throw error;
  }
}

/** sat/vB with up to 3 decimals, from the fee in whole coins (the node's text) and the virtual size. */
export function feeRateOf(feeText: string, vsize: number): string | null {
  const [whole = "0", fraction = ""] = feeText.split(".");
  const sats = BigInt(whole) * 100_000_000n + BigInt(fraction.padEnd(8, "0").slice(0, 8) || "0");
  if (!(vsize > 0)) return null;
  const milli = (sats * 1000n) / BigInt(vsize);
  const rate = `${milli / 1000n}.${(milli % 1000n).toString().padStart(3, "0")}`;
  return rate.replace(/\.?0+$/, "");
}

export function createBitcoinMempoolSource(node: NodeClient): MempoolSource<BitcoinMempoolTx> {
  return {
    coin: "BTC",
    mined: "double_spent",
    txids: () => node.call<string[]>("getrawmempool", [false]),
    async transactions(txids) {
      return Promise.all(
        txids.map(async (txid) => {
          // Parsed as blocks are (values quoted first): the lossless parser costs ten times more, per transaction of a whole mempool.
          const body = await orNull(node.callStreamed("getrawtransaction", [txid, true]));
          if (body === null) return null;
          const raw = parseBitcoinBlockJson(await readText(body)) as RawTransaction;
          const tx: BitcoinTransaction = {
            txid: raw.txid,
            // Only what matching reads: the node's script fields (asm, hex, desc) are let go here.
            vout: raw.vout.map((output) => ({
              value: text(output.value),
              n: num(output.n),
              scriptPubKey: scriptAddress(output.scriptPubKey),
            })),
          };
          return { tx, spends: outpointsOf(raw.vin) };
        }),
      );
    },
    txid: (tx) => tx.tx.txid,
    keys: (tx) => tx.tx.vout.flatMap((output) => output.scriptPubKey.address ?? output.scriptPubKey.addresses?.[0] ?? []),
    spends: (tx) => tx.spends,
    match: (txs, index) => matchBitcoinBlock({ hash: "", height: 0, time: 0, tx: txs.map((tx) => tx.tx) }, index),
    async details(txid) {
      const entry = await orNull(
        node.call<{ vsize?: unknown; fees?: { base?: unknown }; fee?: unknown; "bip125-replaceable"?: boolean }>(
          "getmempoolentry",
          [txid],
          {
            lossless: true,
          },
        ),
      );
      if (entry === null) return null;
      const fee = entry.fees?.base ?? entry.fee;
      return {
        replaceable: entry["bip125-replaceable"] === true,
        feeRate: fee === undefined || entry.vsize === undefined ? null : feeRateOf(text(fee), num(entry.vsize)),
      };
    },
    async isMined(txid, position) {
      // An output of a mined transaction is in the UTXO set until spent (then the spend search tells).
      return position !== null && (await node.call("gettxout", [txid, position, false])) !== null;
    },
    async minedConflict(spends) {
      const spent = new Set<string>();
      for (const outpoint of spends) {
        const [txid, n] = outpoint.split(":");
        if ((await node.call("gettxout", [txid, Number(n), false])) === null) spent.add(outpoint);
      }
      if (!spent.size) return undefined;
      let height = await node.call<number>("getblockcount");
      for (let searched = 0; searched < CONFLICT_SEARCH_BLOCKS && height >= 0; searched++, height--) {
        const hash = await node.call<string>("getblockhash", [height]);
        // Read as the block source reads blocks (streamed, values quoted), not with the lossless parser.
        const block = parseBitcoinBlockJson(await readText(await node.callStreamed("getblock", [hash, 2]))) as {
          tx: Array<{ txid: string; vin: RawInput[] }>;
        };
        const spender = block.tx.find((tx) => outpointsOf(tx.vin).some((outpoint) => spent.has(outpoint)));
        if (spender) return spender.txid;
      }
      return null;
    },
  };
}
