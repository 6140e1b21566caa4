import type { ChainGuardContext } from "./chain-guard-context.ts";

/** Whether the node lacks the oldest kept block (another branch, or a dev chain started fresh). */
export async function keptBlocksGone(context: ChainGuardContext): Promise<boolean> {
  const { store, coin, options } = context;
  const lowest = await store.lowestKept(coin);
  return lowest !== undefined && (await options.source.hashAt(lowest.height)) !== lowest.hash;
}

/** Dev only (`resetStaleChain`): requests a reset to the node's tip; false when the setting is off. */
export async function resetIfDev(context: ChainGuardContext, why: string): Promise<boolean> {
  const { options, logger, coin, store } = context;
  if (!options.resetStaleChain) return false;
  logger.warn({ coin }, `${coin}: ${why}; resetting to the node's tip (SCANNER_RESET_STALE_CHAINS, dev only)`);
  await store.requestReset(coin, undefined);
  return true;
}
