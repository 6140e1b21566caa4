import { resetCommand } from "./reset-command.ts";
import { setGuardStatus, type ChainGuardContext } from "./chain-guard-context.ts";
import { keptBlocksGone, resetIfDev } from "./reset-stale-chain.ts";
import { waitOrReset } from "./wait-for-reset.ts";

/**
 * Checks the chain (a pending reset applied first, the node's identity against the stored one);
 * returns where to start, or undefined when not following (it waited).
 */
export async function admitChain(
  context: ChainGuardContext,
  signal: AbortSignal,
): Promise<{ startHeight: number | undefined } | undefined> {
  const { store, node, coin, logger, options } = context;
  let state = await store.read(coin);
  if (state.pendingReset) {
    await applyReset(context, state.pendingReset, "operator reset applied");
    state = await store.read(coin);
  }
  node.expect(state.identity);
  let identity = "";
  let wrong: string | undefined;
  try {
    identity = await node.identity();
    if (state.identity !== undefined && identity !== state.identity)
      wrong = `the node serves ${identity}, not ${state.identity} (the chain of the kept blocks)`;
  } catch (error) {
    const refused = node.refusals();
    if (refused.length === 0) throw error;
    wrong = `no node URL serves ${state.identity ?? "the chain of the kept blocks"} (${refused.map((entry) => `${entry.url}: ${entry.reason}`).join("; ")})`;
  }
  if (wrong !== undefined) {
    if (await resetIfDev(context, wrong)) return undefined;
    stopWrongChain(context, wrong);
    await waitOrReset(context, context.resetPollMs, signal);
    return undefined;
  }
  if (state.identity === undefined) {
    await store.adoptIdentity(coin, identity);
    node.expect(identity);
    logger.info({ coin, identity }, `${coin}: following the node's chain ${identity}`);
  }
  if (options.resetStaleChain && (await keptBlocksGone(context))) {
    await resetIfDev(context, "the node has none of the kept blocks (a dev chain started fresh)");
    return undefined;
  }
  return { startHeight: state.startHeight };
}

async function applyReset(context: ChainGuardContext, reset: { seq: number; from?: number }, why: string): Promise<void> {
  const { node, store, coin, logger, options } = context;
  node.expect(undefined);
  const identity = await node.identity();
  const startHeight = reset.from ?? (await options.source.tipHeight());
  await store.applyReset(coin, reset.seq, identity, startHeight);
  node.expect(identity);
  logger.warn(
    { coin, identity, start_height: startHeight },
    `${coin}: ${why}: kept blocks and pending matches forgotten; following ${identity} from block ${startHeight}`,
  );
}

function stopWrongChain(context: ChainGuardContext, reason: string): void {
  const { coin, logger } = context;
  const message = `${coin}: ${reason}. Following ${coin} stopped: no block of another chain is processed. Fix: point the ${coin} node URL at a node of the chain this scanner follows, or, if the chain is meant to change (a new dev chain, a deliberate switch), reset: ${resetCommand(coin)} (or --from <height>)`;
  if (context.status.state !== "stopped_wrong_chain") logger.error({ coin, fix: resetCommand(coin) }, message);
  setGuardStatus(context, { state: "stopped_wrong_chain", reason: message });
}
