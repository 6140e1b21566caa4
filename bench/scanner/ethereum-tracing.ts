/**
 * What call tracing costs the Ethereum follower (issue 26): blocks of 200 transactions with 1,000
 * internal value frames (five per transaction, two of them one call deeper, one under a reverted
 * call), every answer with the fields a geth node sends, followed through the real block source, matcher and follower with real Postgres and NATS,
 * with tracing off, with callTracer (`debug`, the default) and with chaingate's own tracer (`js`),
 * in one run. The node is a stand-in that answers each call from JSON text prepared in advance: its
 * own time is left out (a node runs the JS tracer slower than callTracer), while parsing the
 * answers (the trace included) is counted, as the scanner pays it. Target: tracing costs at most 2x.
 *
 * Parsing callTracer's answer alone costs about what the whole untraced follow costs (about 1 ms of
 * CPU per block each), so callTracer cannot meet 2x; the own tracer's answer holds only the value
 * frames (`valueTracerAnswer`, what the tracer answers, proven on Anvil by
 * value-frame-tracer.int.test.ts). The figures depend on the young
 * generation: the scanner starts with `--max-semi-space-size=4` (services/scanner/package.json),
 * which about doubles the CPU per block of both modes against this process's default.
 */
import { createTestDatabase } from "@chaingate/testing";
import type { NodeClient } from "@chaingate/node-client";
import {
  createEthereumBlockSource,
  ethereumBlockHeader,
  followChain,
  matchEthereumBlock,
  valueFramesFromCallTracer,
  type CallTracerFrame,
  type WatchIndex,
} from "@chaingate/scanner";
import { openScannerState } from "@chaingate/scanner/testing";
import { benchFollowerOptions } from "./bench-follower-options.ts";
import { createHash } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import { ERC20_TRANSFER_TOPIC } from "@chaingate/ethereum";
import { ethereumAddress } from "./synthetic-blocks.ts";

const TRANSACTIONS = 200;
const FRAMES_PER_TRANSACTION = 5;
const BLOCKS = Number(process.env.BENCH_ETH_TRACE_BLOCKS ?? 300);
const WARM_UP_BLOCKS = 30;
/** One internal payment in this many goes to a watched address. */
/**
 * The timed blocks pay no watched address from inside a contract: what is timed is what tracing
 * costs (fetching, parsing and probing 1,000 frames per block), not the publishing of the
 * transfers it finds (about 1 ms of CPU per block for one transfer, in any mode). The tracers'
 * agreement is checked on other blocks, where one internal payment in AGREEMENT_WATCHED_EVERY is
 * watched.
 */
const TIMED_WATCHED_EVERY = 0;
const AGREEMENT_WATCHED_EVERY = 50;
const AGREEMENT_BLOCKS = 5;
export const TARGET_TRACING_COST = 2;

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const word = (n: number, width = 64) => n.toString(16).padStart(width, "0");
const blockHash = (height: number) => `0x${word(height)}`;

export interface BlockTexts {
  block: string;
  receipts: string;
  /** callTracer's answer. */
  traces: string;
  /** The answer of chaingate's own tracer (ETH_TRACE_MODE=js) for the same block. */
  valueTraces: string;
}

const filled = (length: number, seed: number) =>
  createHash("sha256")
    .update(String(seed))
    .digest("hex")
    .repeat(Math.ceil(length / 64))
    .slice(0, length);
/** A contract call's data: a selector and three words, as most calls carry. */
const callData = (seed: number) => `0x${filled(8 + 3 * 64, seed)}`;

/**
 * The node's answers for one block, as text, with every field geth sends (so the untraced follow
 * parses what it really parses): the block with its EIP-1559 transactions, the receipts (a token
 * Transfer log each, of a token nobody whitelisted, and the logs bloom), the callTracer traces.
 */
export function blockTexts(height: number, watchedEvery: number): BlockTexts {
  const transactions = [];
  const receipts = [];
  const traces = [];
  const hash = blockHash(height);
  let payment = height * TRANSACTIONS * FRAMES_PER_TRANSACTION;
  const nextPayee = () => {
    payment++;
    return watchedEvery > 0 && payment % watchedEvery === 0 ? ethereumAddress(payment / watchedEvery) : `0x${word(payment, 40)}`;
  };
  for (let t = 0; t < TRANSACTIONS; t++) {
    const txHash = `0x${word(height * TRANSACTIONS + t)}`;
    const from = `0x${word(1_000_000_000 + t, 40)}`;
    const contract = `0x${word(2_000_000_000 + t, 40)}`;
    const relay = `0x${word(3_000_000_000 + t, 40)}`;
    const input = callData(t);
    const at = { blockHash: hash, blockNumber: hex(height), transactionIndex: hex(t) };
    transactions.push({
      ...at,
      hash: txHash,
      from,
      to: contract,
      value: hex(10n ** 18n),
      input,
      gas: "0x3d090",
      gasPrice: "0x6fc23ac00",
      maxFeePerGas: "0xba43b7400",
      maxPriorityFeePerGas: "0x3b9aca00",
      nonce: hex(t),
      type: "0x2",
      accessList: [],
      chainId: "0x1",
      v: "0x1",
      yParity: "0x1",
      r: `0x${filled(64, t + 1)}`,
      s: `0x${filled(64, t + 2)}`,
    });
    receipts.push({
      ...at,
      transactionHash: txHash,
      from,
      to: contract,
      status: "0x1",
      type: "0x2",
      contractAddress: null,
      cumulativeGasUsed: hex(21_000 * (t + 1)),
      effectiveGasPrice: "0x6fc23ac00",
      gasUsed: "0x1d4c0",
      logsBloom: `0x${filled(512, t + 3)}`,
      logs: [
        {
          ...at,
          address: `0x${word(4_000_000_000 + t, 40)}`,
          topics: [`0x${ERC20_TRANSFER_TOPIC}`, `0x${word(1, 64)}`, `0x${word(2, 64)}`],
          data: `0x${word(1000, 64)}`,
          transactionHash: txHash,
          logIndex: hex(t),
          removed: false,
        },
      ],
    });
    const call = (to: string, value: number, callFrom = contract, extra: object = {}) => ({
      from: callFrom,
      gas: "0x2710",
      gasUsed: "0x1f40",
      to,
      input: callData(value),
      output: "0x",
      value: hex(value),
      type: "CALL",
      ...extra,
    });
    traces.push({
      txHash,
      result: {
        from,
        gas: "0x3d090",
        gasUsed: "0x1d4c0",
        to: contract,
        input,
        output: "0x",
        value: hex(10n ** 18n),
        type: "CALL",
        calls: [
          call(nextPayee(), 1),
          call(nextPayee(), 2),
          call(relay, 5, contract, { calls: [call(nextPayee(), 3, relay), call(nextPayee(), 2, relay)] }),
          call(relay, 4, contract, { error: "execution reverted", calls: [call(`0x${word(9, 40)}`, 4, relay)] }),
        ],
      },
    });
  }
  const header = {
    number: hex(height),
    hash,
    parentHash: blockHash(height - 1),
    timestamp: hex(1_700_000_000 + height * 12),
    miner: `0x${filled(40, height)}`,
    stateRoot: `0x${filled(64, height + 1)}`,
    receiptsRoot: `0x${filled(64, height + 2)}`,
    transactionsRoot: `0x${filled(64, height + 3)}`,
    logsBloom: `0x${filled(512, height + 4)}`,
    gasLimit: "0x1c9c380",
    gasUsed: "0xe4e1c0",
    baseFeePerGas: "0x6fc23ac00",
    extraData: "0x",
  };
  return {
    block: JSON.stringify({ ...header, transactions }),
    receipts: JSON.stringify(receipts),
    traces: JSON.stringify(traces),
    valueTraces: JSON.stringify(traces.map(valueTracerAnswer)),
  };
}

/** Internal payments to a payee of its own per transaction: two from the contract, two through the relay (the reverted call pays a fixed address). */
const PAYEES_PER_TRANSACTION = 4;

/**
 * The numbers `i` of the watched addresses (`ethereumAddress(i)`) that `blockTexts(height,
 * watchedEvery)` pays, once each, from inside contracts and never under a reverted call: what the
 * matcher must find in that block when they are watched (and tracing is on).
 */
export function watchedPayees(height: number, watchedEvery: number): number[] {
  if (watchedEvery <= 0) return [];
  const first = height * TRANSACTIONS * FRAMES_PER_TRANSACTION + 1;
  const payees = [];
  for (let payment = first; payment < first + TRANSACTIONS * PAYEES_PER_TRANSACTION; payment++)
    if (payment % watchedEvery === 0) payees.push(payment / watchedEvery);
  return payees;
}

/** What VALUE_FRAME_TRACER answers for a transaction: its value frames as lists, reverted subtrees left out. */
function valueTracerAnswer({ txHash, result }: { txHash: string; result: CallTracerFrame & { from: string } }) {
  const frames = valueFramesFromCallTracer(result).map((frame) => [
    frame.index,
    frame.traceAddress,
    frame.type,
    frame.from,
    frame.to,
    frame.value,
  ]);
  return { txHash, result: { from: result.from, frames, suspect: false } };
}

/**
 * Answers from prepared text, parsed per call as the node client parses a body: on a later turn of
 * the event loop, as an answer read from a socket is, so that each answer is parsed and handed to
 * its caller before the next one is parsed (parsing every call's answer as it is made would hold
 * all the blocks fetched at once in memory together, which the node client never does).
 */
function preparedNode(texts: BlockTexts[]): NodeClient {
  const heightOf = (tag: unknown) => Number(tag);
  const textOfHash = (hash: unknown) => texts[Number(BigInt(String(hash)))];
  const call = async (method: string, params: readonly unknown[] = []) => {
    await setImmediate();
    switch (method) {
      case "eth_blockNumber":
        return hex(texts.length - 1);
      case "eth_getBlockByNumber": {
        const text = texts[heightOf(params[0])];
        return text ? JSON.parse(text.block) : null;
      }
      case "eth_getBlockReceipts":
        return JSON.parse(textOfHash(params[0])!.receipts);
      case "debug_traceBlockByHash": {
        const texts = textOfHash(params[0])!;
        return JSON.parse((params[1] as { tracer: string }).tracer === "callTracer" ? texts.traces : texts.valueTraces);
      }
      default:
        throw new Error(`the prepared node has no ${method}`);
    }
  };
  return { call } as unknown as NodeClient;
}

/** One mode's follow: blocks per second, and this process's CPU per block (its GC threads included; Postgres and NATS not), steadier on a busy machine. */
export interface FollowFigures {
  perSecond: number;
  cpuMsPerBlock: number;
  matchesPerBlock: number;
}

export interface EthereumTracingThroughput {
  untraced: FollowFigures;
  /** ETH_TRACE_MODE=debug: callTracer. */
  callTracer: FollowFigures;
  /** ETH_TRACE_MODE=js: chaingate's own tracer. */
  valueTracer: FollowFigures;
  /** Both tracers' matches on blocks paying watched addresses from inside contracts. */
  agreement: { equal: boolean; matches: number };
}

/** Blocks per second through the follower, with and without tracing, against `index`. */
export async function ethereumTracingThroughput(index: WatchIndex): Promise<EthereumTracingThroughput> {
  const agreement = await tracersAgreement(index);
  const texts = Array.from({ length: BLOCKS }, (_, height) => blockTexts(height, TIMED_WATCHED_EVERY));
  const run = async (traceMode: "debug" | "js" | "off"): Promise<FollowFigures> => {
    const database = await createTestDatabase();
    const state = await openScannerState({
      databaseUrl: database.connectionString,
      natsUrl: process.env.NATS_URL!,
      namespace: `benchtrace${traceMode}${Date.now()}`,
    });
    try {
      const controller = new AbortController();
      let processed = 0;
      let matched = 0;
      let started = 0n;
      let cpuAtStart = process.cpuUsage();
      await followChain({
        chain: {
          coin: "ETH",
          source: createEthereumBlockSource(preparedNode(texts), { traceMode }),
          header: ethereumBlockHeader,
          match: (block, watch) => matchEthereumBlock(block, watch, new Map()),
        },
        ...benchFollowerOptions(state, index, controller.signal),
        fetchConcurrency: 8,
        onBlock: (_block, matches) => {
          if (++processed === WARM_UP_BLOCKS) {
            started = process.hrtime.bigint();
            cpuAtStart = process.cpuUsage();
          }
          if (processed > WARM_UP_BLOCKS) matched += matches;
          if (processed === BLOCKS) controller.abort();
        },
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = process.cpuUsage(cpuAtStart);
      return {
        perSecond: (BLOCKS - WARM_UP_BLOCKS) / seconds,
        cpuMsPerBlock: (cpu.user + cpu.system) / 1000 / (BLOCKS - WARM_UP_BLOCKS),
        matchesPerBlock: matched / (BLOCKS - WARM_UP_BLOCKS),
      };
    } finally {
      await state.close();
      await database.drop();
    }
  };
  // Untraced first and last, traced between: the machine's drift falls on both sides.
  const untracedBefore = await run("off");
  const callTracer = await run("debug");
  const valueTracer = await run("js");
  const untracedAfter = await run("off");
  return {
    untraced: {
      perSecond: (untracedBefore.perSecond + untracedAfter.perSecond) / 2,
      cpuMsPerBlock: (untracedBefore.cpuMsPerBlock + untracedAfter.cpuMsPerBlock) / 2,
      matchesPerBlock: untracedBefore.matchesPerBlock,
    },
    callTracer,
    valueTracer,
    agreement,
  };
}

/** Whether both tracers' blocks give the same matches (transfers, positions, trace addresses), and how many. */
async function tracersAgreement(index: WatchIndex): Promise<{ equal: boolean; matches: number }> {
  const texts = Array.from({ length: AGREEMENT_BLOCKS + 1 }, (_, height) => blockTexts(height, AGREEMENT_WATCHED_EVERY));
  const matchesOf = async (traceMode: "debug" | "js") => {
    const source = createEthereumBlockSource(preparedNode(texts), { traceMode });
    const matches = [];
    for (let height = 1; height <= AGREEMENT_BLOCKS; height++)
      matches.push(...matchEthereumBlock((await source.blockAt(height))!, index, new Map()));
    return matches;
  };
  const [callTracer, valueTracer] = [await matchesOf("debug"), await matchesOf("js")];
  return { equal: JSON.stringify(callTracer) === JSON.stringify(valueTracer), matches: callTracer.length };
}
