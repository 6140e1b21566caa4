/** An in-memory FollowerStore for unit tests and benchmarks (the Postgres one is infra/). */
import type { Coin } from "@chaingate/contracts";
import type { Cursor, FollowerStore, ProcessedBlock, StoredMatch } from "../domain/ports.ts";
import { transferKey } from "../domain/transfer-event.ts";

export function createMemoryFollowerStore(): FollowerStore & {
  blocks: Map<string, ProcessedBlock>;
  matches: Map<string, StoredMatch & { coin: Coin }>;
} {
  const blocks = new Map<string, ProcessedBlock>();
  const matches = new Map<string, StoredMatch & { coin: Coin }>();
  const reverts = new Map<string, number>();
  const key = (coin: Coin, height: number) => `${coin}:${height}`;
  const heights = (coin: Coin) => [...blocks.keys()].filter((k) => k.startsWith(`${coin}:`)).map((k) => Number(k.split(":")[1]));
  const countReverts = (coin: Coin, reverted: readonly StoredMatch[]) => {
    for (const m of reverted) {
      const k = `${coin}:${transferKey(m.match)}`;
      reverts.set(k, Math.max(reverts.get(k) ?? 0, m.generation + 1));
    }
  };
  const markPublished = (publishedNow: ReadonlyArray<{ id: string; confirmations: number }>) => {
    for (const { id, confirmations } of publishedNow) matches.get(id)!.publishedConfirmations = confirmations;
  };
  return {
    blocks,
    matches,
    async begin() {},
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
      return [...matches.values()].filter(
        (m) => m.coin === coin && m.publishedConfirmations === null && tipHeight - m.height + 1 >= m.match.confirmations,
      );
    },
    async commitBlocks(coin, newBlocks, newMatches, publishedNow, keepFrom) {
      for (const block of newBlocks) blocks.set(key(coin, block.height), block);
      for (const m of newMatches) if (!matches.has(m.id)) matches.set(m.id, { ...m, coin });
      markPublished(publishedNow);
      for (const height of heights(coin)) if (height < keepFrom) blocks.delete(key(coin, height));
      for (const [id, m] of matches) if (m.coin === coin && m.height < keepFrom && m.publishedConfirmations !== null) matches.delete(id);
    },
    async recordPublishing(coin, published, publishedNow) {
      for (const m of published) if (!matches.has(m.id)) matches.set(m.id, { ...m, coin });
      markPublished(publishedNow);
    },
    async publishedAbove(coin, height) {
      return [...matches.values()].filter((m) => m.coin === coin && m.height > height && m.publishedConfirmations !== null);
    },
    async blocksMatchedSince(coin, sinceMs) {
      return heights(coin)
        .sort((x, y) => x - y)
        .map((height) => blocks.get(key(coin, height))!)
        .filter((block) => block.matchedAtMs >= sinceMs)
        .map((block) => ({ height: block.height, hash: block.hash, matchedAtMs: block.matchedAtMs }));
    },
    async generations(coin, keys) {
      return new Map(keys.flatMap((k) => (reverts.has(`${coin}:${k}`) ? [[k, reverts.get(`${coin}:${k}`)!] as const] : [])));
    },
    async rewindTo(coin, height, reverted) {
      countReverts(coin, reverted);
      for (const h of heights(coin)) if (h > height) blocks.delete(key(coin, h));
      for (const [id, m] of matches) if (m.coin === coin && m.height > height) matches.delete(id);
    },
    async revertMatches(coin, reverted) {
      countReverts(coin, reverted);
      for (const m of reverted) matches.delete(m.id);
    },
  };
}
