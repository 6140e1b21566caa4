/**
 * Bitcoin: one transfer per output whose address is watched (`scriptPubKey.address`, falling back
 * to `addresses[0]` of nodes before 22.0), coinbase outputs included. Values are the node's decimal
 * text, never a double.
 */
import { BITCOIN_DECIMALS } from "@chaingate/bitcoin";
import { decimalToBaseUnits, formatUnits } from "@chaingate/decimal-amount";
import { collectMatches } from "./collect-matches.ts";
import type { BlockHeader, Match } from "./transfer.ts";
import type { WatchIndex } from "./watch-index.ts";

/** `getblock <hash> 2`, with every `value` kept as its JSON text. */
export interface BitcoinBlock {
  hash: string;
  height: number;
  previousblockhash?: string;
  time: number;
  tx: BitcoinTransaction[];
}

export interface BitcoinTransaction {
  txid: string;
  vout: BitcoinOutput[];
}

export interface BitcoinOutput {
  /** The node's number text, e.g. "0.00000050". */
  value: string;
  n: number;
  scriptPubKey: { address?: string; addresses?: string[] };
}

export function bitcoinBlockHeader(block: BitcoinBlock): BlockHeader {
  return {
    height: block.height,
    hash: block.hash,
    parentHash: block.previousblockhash ?? null,
    timeMs: block.time * 1000,
    txCount: block.tx.length,
  };
}

export function matchBitcoinBlock(block: BitcoinBlock, index: WatchIndex): Match[] {
  const matches: Match[] = [];
  if (!index.watchesAny("BTC")) return matches;
  // Every output's address first, asked of the address filter at once (its probes overlap in
  // memory, see WatchIndex.mayBeWatched), then the few outputs a webhook may watch, exactly.
  const addresses: string[] = [];
  for (const tx of block.tx) {
    for (const output of tx.vout) {
      const address = output.scriptPubKey.address ?? output.scriptPubKey.addresses?.[0];
      if (address !== undefined) addresses.push(address);
    }
  }
  const mayBeWatched = index.mayBeWatched("BTC", addresses);
  // The same walk again, counting addresses, so no list of outputs is built for the few kept.
  let o = 0;
  for (const tx of block.tx) {
    for (const output of tx.vout) {
      const address = output.scriptPubKey.address ?? output.scriptPubKey.addresses?.[0];
      if (address === undefined || !mayBeWatched[o++]) continue;
      collectMatches(
        index,
        { coin: "BTC", toKey: address, fromKey: undefined },
        () => {
          const rawAmount = decimalToBaseUnits(output.value, BITCOIN_DECIMALS);
          return {
            coin: "BTC",
            currency: "BTC",
            from: null,
            to: address,
            amount: formatUnits(rawAmount, BITCOIN_DECIMALS),
            rawAmount,
            decimals: BITCOIN_DECIMALS,
            tokenContract: null,
            txid: tx.txid,
            position: output.n,
            executionStatus: "SUCCESS",
          };
        },
        matches,
      );
    }
  }
  return matches;
}
