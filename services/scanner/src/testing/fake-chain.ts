/** A scripted Bitcoin-like node, a recording event sink and a fixed watch feed, for follower tests. */
import type { BitcoinBlock } from "../domain/match-bitcoin-block.ts";
import { bitcoinBlockHeader, matchBitcoinBlock } from "../domain/match-bitcoin-block.ts";
import {
  FEED_ALWAYS_CURRENT,
  type BlockProcessedEvent,
  type ChainFollowerSpec,
  type EventSink,
  type WatchFeed,
  type WatchFeedState,
} from "../domain/ports.ts";
import type { WatchIndex } from "../domain/watch-index.ts";
import type { TransferEvent } from "../domain/transfer-event.ts";
import type { MempoolEvent } from "../domain/mempool/mempool-event.ts";
import { isBlockTransfer } from "@chaingate/contracts";

/**
 * A node whose best chain the test rewrites. `view.lag` hides the newest blocks from every call (a
 * node behind); `view.blocksLag` only from hashAt/blockAt (a load-balanced provider whose tip comes
 * from one backend and blocks from another); `view.missing` heights hashAt answers null for once.
 */
export function fakeChain() {
  const chain: BitcoinBlock[] = [];
  const view = { lag: 0, blocksLag: 0, missing: new Set<number>() };
  const mine = (payments: Array<[string, string]> = [], tag = "a") => {
    const height = chain.length;
    chain.push({
      hash: `${tag}${height}`,
      height,
      ...(height > 0 ? { previousblockhash: chain[height - 1]!.hash } : {}),
      time: 1_700_000_000 + height,
      tx: [{ txid: `tx-${tag}${height}`, vout: payments.map(([address, value], n) => ({ value, n, scriptPubKey: { address } })) }],
    });
  };
  const visible = (height: number) => height <= chain.length - 1 - view.lag - view.blocksLag;
  const spec: ChainFollowerSpec<BitcoinBlock> = {
    coin: "BTC",
    source: {
      tipHeight: async () => chain.length - 1 - view.lag,
      blockAt: async (height) => (visible(height) ? (chain[height] ?? null) : null),
      hashAt: async (height) => {
        if (view.missing.delete(height)) return null;
        return visible(height) ? (chain[height]?.hash ?? null) : null;
      },
    },
    header: bitcoinBlockHeader,
    match: matchBitcoinBlock,
  };
  return { chain, mine, spec, view };
}

export function recordingSink() {
  const transfers = new Map<string, TransferEvent>();
  const published: TransferEvent[] = [];
  const mempool: MempoolEvent[] = [];
  const blocks: BlockProcessedEvent[] = [];
  const sink: EventSink = {
    async publishTransfer(event) {
      if (!isBlockTransfer(event)) return void mempool.push(event);
      published.push(event);
      transfers.set(event.event_id, event);
    },
    async publishBlock(event) {
      blocks.push(event);
    },
  };
  return { sink, transfers, published, mempool, blocks };
}

/**
 * A watch feed with no registry behind it: `apply` (if given) sets up the index at each refresh,
 * and every refresh reports `state` (default: always current, no late addresses).
 */
export function fixedWatchFeed(
  apply?: (index: WatchIndex) => void,
  state: () => WatchFeedState = () => FEED_ALWAYS_CURRENT,
): WatchFeed & { finished: number[] } {
  const finished: number[] = [];
  return {
    finished,
    async refresh(index) {
      apply?.(index);
      return state();
    },
    async finishRescans(ids) {
      finished.push(...ids);
    },
  };
}
