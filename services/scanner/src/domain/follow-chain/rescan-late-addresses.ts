import type { Cursor, RescanJob, StoredMatch } from "../ports.ts";
import { NodeBehindError } from "../scanner-errors.ts";
import { transferEvent, transferEventId, transferKey, type TransferEvent } from "../transfer-event.ts";
import type { BlockHeader } from "../transfer.ts";
import { WatchIndex } from "../watch-index.ts";
import type { FollowChainOptions } from "./follow-chain-options.ts";

/**
 * Matches addresses that became watched after kept blocks were matched without them: each such
 * block (matched since the addresses became watched, still on the kept chain) is fetched again and
 * matched against those addresses alone; what is deep enough is published now, the rest waits for
 * its depth like any match. Ids are the usual deterministic ones, so a block that did have the
 * address publishes nothing twice.
 */
export async function rescanLateAddresses<Block>(
  options: FollowChainOptions<Block>,
  jobs: readonly RescanJob[],
  cursor: Cursor | undefined,
): Promise<void> {
  const { chain, store, sink, index, logger } = options;
  const coin = chain.coin;
  // The kept blocks any job may need, read once; each block fetched at most once.
  const earliest = Math.min(...jobs.map((job) => job.sinceMs));
  const kept = cursor ? (await store.blocksMatchedSince(coin, earliest)).filter((block) => block.height <= cursor.height) : [];
  const fetched = new Map<number, { block: Block; header: BlockHeader } | undefined>();
  async function keptBlock(height: number, hash: string) {
    if (!fetched.has(height)) {
      const block = await chain.source.blockAt(height);
      if (block === null) throw new NodeBehindError(coin, height);
      const header = chain.header(block);
      // No longer on the node's chain: the follower's rewind deals with that block.
      fetched.set(height, header.hash === hash ? { block, header } : undefined);
    }
    return fetched.get(height);
  }
  const stored: StoredMatch[] = [];
  const events: TransferEvent[] = [];
  for (const job of jobs) {
    const settings = index.settings(job.webhookId);
    const blocks = kept.filter((block) => block.matchedAtMs >= job.sinceMs);
    if (!settings || blocks.length === 0) continue;
    const addresses =
      job.addresses === null
        ? index.listedAddresses(job.webhookId)
        : job.addresses.filter((address) => index.watches(job.webhookId, address));
    if (addresses.length === 0) continue;
    const only = new WatchIndex();
    only.apply({
      webhookId: job.webhookId,
      coin,
      addresses,
      isActive: true,
      deleted: false,
      version: 1,
      confirmations: settings.confirmations,
      includeTokens: settings.includeTokens,
      allTokens: settings.allTokens,
    });
    let matched = 0;
    for (const { height, hash } of blocks) {
      const found = await keptBlock(height, hash);
      if (!found) continue;
      await chain.prepare?.(found.block, only);
      const matches = chain.match(found.block, only);
      if (matches.length === 0) continue;
      const generations = await store.generations(
        coin,
        matches.map((match) => transferKey(match)),
      );
      const depth = cursor!.height - height + 1;
      for (const match of matches) {
        const generation = generations.get(transferKey(match)) ?? 0;
        const published = depth >= match.confirmations ? depth : null;
        stored.push({
          id: transferEventId("transfer", match, hash, generation),
          match,
          height,
          blockHash: hash,
          timeMs: found.header.timeMs,
          publishedConfirmations: published,
          generation,
        });
        if (published !== null) events.push(transferEvent("transfer", match, found.header, published, generation));
        matched++;
      }
    }
    logger.info(
      {
        coin,
        webhook_id: job.webhookId,
        addresses: addresses.length,
        blocks: blocks.length,
        matched,
        since: new Date(job.sinceMs).toISOString(),
      },
      "rescanned kept blocks for addresses that became watched late",
    );
  }
  if (stored.length) {
    await store.recordPublishing(coin, stored, []);
    await Promise.all(events.map((event) => sink.publishTransfer(event)));
  }
  await options.watchFeed.finishRescans(jobs.map((job) => job.id));
}
