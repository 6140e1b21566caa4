/**
 * Bitcoin blocks through the shared node client: `getblockcount`, `getblockhash`, `getblock <hash>
 * 2` streamed, with every output `value` quoted before JSON.parse so it keeps the node's decimal
 * text (10x faster than a lossless tokenizer on a megabyte block; the other numbers are small
 * integers a double holds exactly).
 */
import { text as readText } from "node:stream/consumers";
import { JsonNumber, NodeRpcError, type NodeClient } from "@chaingate/node-client";
import type { BitcoinBlock, BitcoinOutput, BitcoinTransaction } from "../domain/match-bitcoin-block.ts";
import type { BlockSource } from "../domain/ports.ts";

/** -8 "Block height out of range": no block at that height (yet). */
const HEIGHT_OUT_OF_RANGE = -8;
/** An output's `"value": 0.00000050` (the only amounts a verbosity-2 block carries). */
const VALUE_NUMBER = /"value":\s*(-?\d[\d.eE+-]*)/g;

/** JSON.parse of a `getblock … 2` result with each `value` kept as its text. */
export function parseBitcoinBlockJson(body: string): unknown {
  return JSON.parse(body.replace(VALUE_NUMBER, '"value":"$1"'));
}

const num = (value: unknown): number => (value instanceof JsonNumber ? Number(value.text) : Number(value));
const text = (value: unknown): string => (value instanceof JsonNumber ? value.text : String(value));

interface RawOutput {
  value: unknown;
  n: unknown;
  scriptPubKey?: { address?: string; addresses?: string[] };
}

interface RawBlock {
  hash: string;
  height: unknown;
  previousblockhash?: string;
  time: unknown;
  tx: Array<{ txid: string; vout: RawOutput[] }>;
}

export function toBitcoinBlock(raw: RawBlock): BitcoinBlock {
  return {
    hash: raw.hash,
    height: num(raw.height),
    ...(raw.previousblockhash ? { previousblockhash: raw.previousblockhash } : {}),
    time: num(raw.time),
    tx: raw.tx.map(
      (tx): BitcoinTransaction => ({
        txid: tx.txid,
        vout: tx.vout.map(
          (output): BitcoinOutput => ({ value: text(output.value), n: num(output.n), scriptPubKey: output.scriptPubKey ?? {} }),
        ),
      }),
    ),
  };
}

export function createBitcoinBlockSource(node: NodeClient): BlockSource<BitcoinBlock> {
  async function hashAt(height: number): Promise<string | null> {
    try {
      return await node.call<string>("getblockhash", [height]);
    } catch (error) {
      if (error instanceof NodeRpcError && error.rpcCode === HEIGHT_OUT_OF_RANGE) return null;
      throw error;
    }
  }
  return {
    tipHeight: () => node.call<number>("getblockcount"),
    hashAt,
    async blockAt(height) {
      const hash = await hashAt(height);
      if (hash === null) return null;
      const result = await node.callStreamed("getblock", [hash, 2]);
      return toBitcoinBlock(parseBitcoinBlockJson(await readText(result)) as RawBlock);
    },
  };
}
