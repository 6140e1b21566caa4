/** An in-memory FollowerStore for unit tests and benchmarks (the Postgres one is infra/). */
import type { Coin } from "@chaingate/contracts";
import type { Cursor, FollowerStore, StoredMatch } from "../domain/ports.ts";
import type { BlockHeader } from "../domain/transfer.ts";

export function createMemoryFollowerStore(): FollowerStore & { blocks: Map<string, BlockHeader>; matches: Map<string, StoredMatch & { coin: Coin }> } {
  const blocks = new Map<string, BlockHeader>();
  const matches = new Map<string, StoredMatch & { coin: Coin }>();
  const key = (coin: Coin, height: number) => `${coin}:${height}`;
  const heights = (coin: Coin) => [...blocks.keys()].filter((k) => k.startsWith(`${coin}:`)).map((k) => Number(k.split(":")[1]));
  return {
    blocks,
    matches,
    async cursor(coin): Promise<Cursor | undefined> {
      const all = heights(coin);
      if (all.length === 0) return undefined;
      const block = blocks.get(key(coin, Math.max(...all)))!;
      return { height: block.height, hash: block.hash };
    },
    async hashAt(coin, height) {
      return blocks.get(key(coin, height))?.hash;
    },
    async pendingDue(coin, tipHeight) {
      return [...matches.values()].filter((m) => m.coin === coin && m.publishedConfirmations === null && tipHeight - m.height + 1 >= m.match.confirmations);
    },
    async commitBlocks(coin, newBlocks, newMatches, publishedNow, keepFrom) {
      for (const block of newBlocks) blocks.set(key(coin, block.height), block);
      for (const m of newMatches) matches.set(m.id, { ...m, coin });
      for (const { id, confirmations } of publishedNow) matches.get(id)!.publishedConfirmations = confirmations;
      for (const height of heights(coin)) if (height < keepFrom) blocks.delete(key(coin, height));
      for (const [id, m] of matches) if (m.coin === coin && m.height < keepFrom && m.publishedConfirmations !== null) matches.delete(id);
    },
    async publishedAbove(coin, height) {
      return [...matches.values()].filter((m) => m.coin === coin && m.height > height && m.publishedConfirmations !== null);
    },
    async rewindTo(coin, height) {
      for (const h of heights(coin)) if (h > height) blocks.delete(key(coin, h));
      for (const [id, m] of matches) if (m.coin === coin && m.height > height) matches.delete(id);
    },
  };
}
