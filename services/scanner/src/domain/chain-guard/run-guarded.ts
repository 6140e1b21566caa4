import { ReorgTooDeepError } from "../scanner-errors.ts";
import { setGuardStatus, sleep, type ChainGuardContext } from "./chain-guard-context.ts";
import { admitChain } from "./admit-chain.ts";
import { resetCommand } from "./reset-command.ts";
import { resetIfDev } from "./reset-stale-chain.ts";
import { waitForResetOrKeptBlocks, waitOrReset, watchResets } from "./wait-for-reset.ts";

/** Runs `follow` while the chain is right, until `signal` aborts (`ChainGuard.run`). */
export async function runGuarded(
  context: ChainGuardContext,
  signal: AbortSignal,
  follow: (startHeight: number | undefined, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { coin, logger, resetPollMs, stoppedRetryMs } = context;
  while (!signal.aborted) {
    let admitted;
    try {
      admitted = await admitChain(context, signal);
    } catch (error) {
      if (signal.aborted) return;
      if (context.status.state !== "waiting")
        logger.warn({ coin, err: error, retry_every_ms: resetPollMs }, `${coin}: cannot check the node's chain yet; retrying`);
      setGuardStatus(context, {
        state: "waiting",
        reason: `${coin}: reading the node's chain identity failed: ${error instanceof Error ? error.message : String(error)}`,
      });
      await sleep(resetPollMs, signal);
      continue;
    }
    if (!admitted) continue;
    setGuardStatus(context, { state: "following" });
    const inner = new AbortController();
    const both = AbortSignal.any([signal, inner.signal]);
    const watcher = watchResets(context, both, () => inner.abort());
    try {
      await follow(admitted.startHeight, both);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ReorgTooDeepError) {
        if (await resetIfDev(context, error.message)) continue;
        const message = `${error.message}: matches there can no longer be reverted. Following ${coin} stopped. Fix: check the node is on the right chain and synced; then reset: ${resetCommand(coin)} (or --from <height> to process from a height again)`;
        logger.error({ coin, err: error, fix: resetCommand(coin) }, message);
        setGuardStatus(context, { state: "stopped_reorg_too_deep", reason: message });
        await waitForResetOrKeptBlocks(context, signal);
      } else {
        logger.error({ coin, err: error }, `${coin}: follower stopped; retrying in ${stoppedRetryMs} ms`);
        setGuardStatus(context, {
          state: "waiting",
          reason: `${coin}: follower stopped: ${error instanceof Error ? error.message : String(error)}`,
        });
        await waitOrReset(context, stoppedRetryMs, signal);
      }
    } finally {
      inner.abort();
      await watcher;
    }
  }
}
