/**
 * Several EVM chains in one scanner process (issue #31): is one process serving three chains as
 * good as three processes, and what does each extra chain cost? In one run, each in a fresh
 * process started as the scanner is (evm-chains-run.ts): ETH followed alone, then ETH, POLYGON
 * (chain id 137) and BSC (56) followed at once over one Postgres store, then ETH alone again (the
 * baseline is the mean of both alone runs, so the machine's drift falls on both sides). Real
 * follower, Ethereum block source (callTracer, the default ETH_TRACE_MODE), matcher, Postgres and
 * NATS; blocks of 200 transactions with 1,000 internal value frames (ethereum-tracing.ts), two of
 * them paying watched addresses; the node's own time is left out. BENCH_EVM_CHAINS_BLOCKS blocks
 * per chain (200), the first 20 of each untimed.
 *
 * Per chain: blocks per second while all the run's chains were being followed (from the last
 * chain's end of warm-up to the first chain's last block), and its transfers against the number
 * its blocks pay (each under its own coin and native currency, so a chain matched as another, or
 * matched against nothing, fails). RSS: the kernel's peak (VmHWM, reset when following starts)
 * and the mean of samples every 50 ms, over the RSS before following.
 *
 * Targets. Throughput: each of the three chains at least 0.3 of its alone figure. The alone
 * follower already keeps the event loop about 95 % busy, so a process following three chains can
 * give each a third at best (the same work on one thread, taking turns); 0.3 is that third less a
 * tenth for the drift between runs on a shared machine: below it, sharing slows the chains beyond
 * the split. Memory: at most 64 MB of peak RSS per extra chain (the scanner's 1 GiB limit, less
 * the watch index, would then hold about ten chains). Neither counts the extra chains' watched
 * addresses (about 116 bytes each, the matching benchmark's memory figure), nor a mempool
 * watcher per chain (only while a webhook of the chain wants pending events).
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import type { Coin } from "@chaingate/contracts";
import {
  EVM_CHAINS_BLOCKS,
  EVM_CHAINS_RUN_TIMEOUT_MS,
  EVM_CHAINS_WARM_UP_BLOCKS,
  EVM_CHAINS_WATCHED_EVERY,
  type EvmChainsRun,
} from "./evm-chains-run.ts";

const RUN_SCRIPT = new URL("./evm-chains-run.ts", import.meta.url).pathname;
/** How the scanner starts (services/scanner/package.json): the young generation sizes the CPU per block. */
const NODE_FLAGS = ["--max-semi-space-size=4"];
const CHAINS: readonly Coin[] = ["ETH", "POLYGON", "BSC"];
export const TARGET_SHARE = 0.3;
export const TARGET_RSS_PER_EXTRA_CHAIN_MB = 64;

/** One configuration in a fresh process: its figures, or why it failed. */
function runChains(coins: readonly Coin[]): Promise<EvmChainsRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, RUN_SCRIPT], {
      env: { ...process.env, BENCH_EVM_CHAINS_RUN: coins.join(",") },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    // The run ends its own followers at EVM_CHAINS_RUN_TIMEOUT_MS; this is for a process that hangs anyway.
    const killer = setTimeout(() => child.kill("SIGKILL"), EVM_CHAINS_RUN_TIMEOUT_MS + 60_000);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(killer);
      const line = output.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as EvmChainsRun);
      else reject(new Error(`the ${coins.join("+")} run exited with ${code ?? signal}: ${output.slice(-500)}`));
    });
  });
}

interface RunFigures {
  /** Blocks per second per chain while all were followed; undefined for a chain that stalled. */
  perSecond: Map<Coin, number | undefined>;
  /** False when a chain finished before another's warm-up ended (each chain then timed over its own span). */
  overlapped: boolean;
  cpuMsPerBlock: number;
  rssGrowth: { peak: number; mean: number };
}

function figuresOf(run: EvmChainsRun): RunFigures {
  const complete = run.chains.every((chain) => chain.blockTimesMs.length === EVM_CHAINS_BLOCKS);
  const first = (times: number[]) => times[EVM_CHAINS_WARM_UP_BLOCKS - 1]!;
  const start = Math.max(...run.chains.map((chain) => first(chain.blockTimesMs)));
  const end = Math.min(...run.chains.map((chain) => chain.blockTimesMs.at(-1)!));
  const overlapped = end > start;
  const perSecond = new Map<Coin, number | undefined>();
  for (const { coin, blockTimesMs: times } of run.chains) {
    if (!complete) perSecond.set(coin, undefined);
    else if (overlapped) perSecond.set(coin, times.filter((t) => t > start && t <= end).length / ((end - start) / 1000));
    else perSecond.set(coin, (EVM_CHAINS_BLOCKS - EVM_CHAINS_WARM_UP_BLOCKS) / ((times.at(-1)! - first(times)) / 1000));
  }
  const blocks = run.chains.reduce((sum, chain) => sum + chain.blockTimesMs.length, 0);
  return {
    perSecond,
    overlapped,
    cpuMsPerBlock: run.cpuMs / blocks,
    rssGrowth: { peak: run.rss.peak - run.rss.before, mean: run.rss.mean - run.rss.before },
  };
}

const fixed = (n: number | undefined, digits = 1) => (n === undefined ? "stalled" : n.toFixed(digits));

function describeRun(run: EvmChainsRun, figures: RunFigures): string {
  const stalled = run.chains.filter((chain) => chain.blockTimesMs.length < EVM_CHAINS_BLOCKS);
  return (
    `CPU ${figures.cpuMsPerBlock.toFixed(2)} ms per block, event loop ${(run.eventLoopUtilization * 100).toFixed(1)} % busy; ` +
    `RSS ${run.rss.before.toFixed(0)} MB before following, peak +${figures.rssGrowth.peak.toFixed(0)} MB, mean +${figures.rssGrowth.mean.toFixed(0)} MB` +
    stalled
      .map((chain) => `; ${chain.coin} STALLED after ${chain.blockTimesMs.length} blocks (first warning: ${chain.firstWarning ?? "none"})`)
      .join("")
  );
}

export async function benchEvmChains(): Promise<boolean> {
  const aloneBefore = await runChains(["ETH"]);
  const together = await runChains(CHAINS);
  const aloneAfter = await runChains(["ETH"]);
  const [before, three, after] = [aloneBefore, together, aloneAfter].map(figuresOf) as [RunFigures, RunFigures, RunFigures];
  const aloneRates = [before.perSecond.get("ETH"), after.perSecond.get("ETH")];
  const alone = aloneRates.every((rate) => rate !== undefined) ? (aloneRates[0]! + aloneRates[1]!) / 2 : undefined;
  const shares = CHAINS.map((coin) => {
    const rate = three.perSecond.get(coin);
    return rate === undefined || alone === undefined ? undefined : rate / alone;
  });
  const aloneGrowth = {
    peak: (before.rssGrowth.peak + after.rssGrowth.peak) / 2,
    mean: (before.rssGrowth.mean + after.rssGrowth.mean) / 2,
  };
  const extra = CHAINS.length - 1;
  const perExtraChain = {
    peak: (three.rssGrowth.peak - aloneGrowth.peak) / extra,
    mean: (three.rssGrowth.mean - aloneGrowth.mean) / extra,
  };
  const runs = [aloneBefore, together, aloneAfter];
  const checks = {
    transfers: runs.every((run) =>
      run.chains.every((chain) => chain.expectedTransfers > 0 && chain.transfers === chain.expectedTransfers && chain.wrongCurrency === 0),
    ),
    share: shares.every((share) => share !== undefined && share >= TARGET_SHARE),
    rss: perExtraChain.peak <= TARGET_RSS_PER_EXTRA_CHAIN_MB,
  };
  const together3 = CHAINS.map((coin) => three.perSecond.get(coin) ?? 0).reduce((sum, rate) => sum + rate, 0);
  console.log(
    `  EVM chains in one scanner process (node ${NODE_FLAGS.join(" ")}, ${availableParallelism()} cores shared with Postgres and NATS; ${EVM_CHAINS_BLOCKS} blocks per chain from height 0, the first ${EVM_CHAINS_WARM_UP_BLOCKS} untimed; ` +
      `200 tx and 1,000 internal value frames per block, callTracer; 1 internal payment in ${EVM_CHAINS_WATCHED_EVERY} watched; one Postgres store; the node's time left out):`,
  );
  console.log(
    `    ETH alone: ${fixed(before.perSecond.get("ETH"))} blocks/s before, ${fixed(after.perSecond.get("ETH"))} after (baseline ${fixed(alone)}); ` +
      `before: ${describeRun(aloneBefore, before)}; after: ${describeRun(aloneAfter, after)}`,
  );
  console.log(
    `    ${CHAINS.join(" + ")} at once: ${CHAINS.map((coin, i) => `${coin} ${fixed(three.perSecond.get(coin))} blocks/s (${fixed(shares[i], 2)} of alone)`).join(", ")}` +
      `${three.overlapped ? "" : " (the chains did not overlap: each timed over its own blocks)"}; together ${together3.toFixed(1)} blocks/s = ${alone ? (together3 / alone).toFixed(2) : "?"}x alone; ` +
      describeRun(together, three),
  );
  console.log(
    `    transfers found: ${runs
      .map((run) =>
        run.chains
          .map(
            (chain) =>
              `${chain.coin} ${chain.transfers}/${chain.expectedTransfers}${chain.wrongCurrency ? ` (${chain.wrongCurrency} in another currency)` : ""}`,
          )
          .join(", "),
      )
      .join("; ")} (each under its own coin and native currency)`,
  );
  console.log(
    `    RSS per extra chain: peak ${perExtraChain.peak >= 0 ? "+" : ""}${perExtraChain.peak.toFixed(1)} MB, mean ${perExtraChain.mean >= 0 ? "+" : ""}${perExtraChain.mean.toFixed(1)} MB ` +
      `(three at once against alone, over ${extra}; target <= ${TARGET_RSS_PER_EXTRA_CHAIN_MB} MB peak)`,
  );
  const lowest = Math.min(...shares.map((share) => share ?? 0));
  console.log(
    `    verdict: one process following ${CHAINS.length} chains gives each at least ${lowest.toFixed(2)} of its alone throughput (target >= ${TARGET_SHARE}; a fair third is 0.33): ` +
      `${checks.share ? "CPU-shared, not slowed beyond sharing" : "slowed beyond sharing"}; each extra chain costs ${perExtraChain.peak.toFixed(0)} MB of peak RSS ` +
      `(${checks.rss ? "within" : "OVER"} ${TARGET_RSS_PER_EXTRA_CHAIN_MB} MB)${checks.transfers ? "" : "; TRANSFERS WRONG (see above)"}`,
  );
  for (const [name, ok] of Object.entries(checks)) if (!ok) console.log(`  MISSED: evmChains.${name}`);
  return Object.values(checks).every(Boolean);
}
