/**
 * The hostile-node drill's settings and its running state: the peers, the services, and what the
 * drill has watched, paid and seen leave the best chain so far. The drill's steps (payments.ts,
 * reorgs.ts, scheduled-events.ts, verdict-report.ts) take this state as their first argument.
 */
import { fileURLToPath } from "node:url";
import {
  seededRandom,
  type AnvilNode,
  type LitecoindRegtest,
  type NodeFaultProxy,
  type NodeFaults,
  type PrivateNats,
  type ValueRouter,
} from "@chaingate/testing";
import type { DevnodeContext } from "@chaingate/tron-devnode/testing";
import type { NotificationStack } from "../notification-stack.ts";
import type { ScannedCoin } from "../scanner-watch.ts";

export const REPORT = fileURLToPath(new URL("../../../.tmp/drills/hostile-node.json", import.meta.url));
export const SEED = Number(process.env.HOSTILE_NODE_SEED ?? 20_261_125);
/** BIP84 account 0 of the "abandon ... about" mnemonic. */
export const ZPUB = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs";

/** One round: a payment and a block on each chain. Scheduled events happen between rounds. */
export const ROUNDS = 24;
export const ROUND_MS = 1_200;
/** How long a Bitcoin payment waits in the mempool before its block (or its replacement): two of the scanner's mempool polls. */
export const MEMPOOL_SEEN_MS = 400;
/** Rounds a proxy keeps one fault profile. */
export const PHASE_ROUNDS = 4;
/** Rounds NATS stays down. */
export const NATS_PAUSE_ROUNDS = 3;
export const SCANNER_KILLS = 3;
/** The scanner's node timeout; a held request outlasts it. */
export const NODE_TIMEOUT_MS = 1_500;
/** How long the drill lets the scanner see branch B before bringing A back (not needed for correctness). */
export const SEE_BRANCH_MS = 8_000;
/** Generous: the chains settled, everything owed should arrive well within this. */
export const SETTLE_TIMEOUT_MS = 30_000;
export const QUIET_MS = 2_000;

/** What a proxy does wrong during one phase. */
export const FAULT_PROFILES: Record<string, Partial<NodeFaults>> = {
  calm: {},
  lagging: { lag: 2 },
  loadBalanced: { alternate: { probability: 0.5, lag: 1 } },
  incomplete: { nullReceipts: 0.4, failedTraces: 0.4, emptyTransactionInfo: 0.4 },
  timeouts: { timeout: 0.1, holdMs: NODE_TIMEOUT_MS + 1_000 },
  drops: { drop: 0.15 },
};

/** Under every profile: the Ethereum node fails a fifth of its call traces (a tracer timing out now and then). */
export const BASELINE_FAULTS: Record<ScannedCoin, Partial<NodeFaults>> = { BTC: {}, ETH: { failedTraces: 0.2 }, TRX: {} };

// One generator per concern: the schedule, the payments and each proxy repeat for a seed.
export const scheduleRandom = seededRandom(SEED);
export const paymentRandom = seededRandom(SEED + 1);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watched address: by which webhook, since when (ms, the registry's answer), and how it came to be watched. */
export interface Watch {
  webhookId: number;
  since: number;
  origin: string;
}

/**
 * A payment the drill made; `position` is the output index (BTC), null for a native account
 * transfer, or the internal transfer's position (its call frame's index, or its entry's index in
 * Tron's internal_transactions).
 */
export interface Payment {
  coin: ScannedCoin;
  txid: string;
  address: string;
  position: number | null;
  /** When the drill sent it (ms since the epoch). */
  sentAt: number;
}

/** Where a transaction is in the final best chain, read from the node itself. */
export interface FinalPlace {
  block: string;
  timeMs: number;
}

/** The peers and services the drill runs against: the test file's fixtures. */
export interface HostilePeers {
  nats: PrivateNats;
  node: LitecoindRegtest;
  anvil: AnvilNode;
  /** Pays Ethereum addresses from inside a contract (internal transfers). */
  router: ValueRouter;
  tron: DevnodeContext;
  proxies: Record<ScannedCoin, NodeFaultProxy>;
  product: NotificationStack;
}

/** The peers and what the drill has done so far. */
export interface HostileDrill extends HostilePeers {
  started: number;
  /** A call through the gateway that must succeed: its body. */
  api: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
  /** Address → the webhooks watching it. */
  watches: Map<string, Watch[]>;
  /** Addresses the payments go to, per chain; `fresh` ones are paid first (a late arrival must meet a payment). */
  payable: Record<ScannedCoin, string[]>;
  fresh: Record<ScannedCoin, string[]>;
  /** Every webhook naming the key now; an issued address is watched by each from its issuance. */
  xpubWebhooks: number[];
  /** When the auto-watching webhook's list was replaced by a PUT. */
  listReplacedAt: number;
  performed: string[];
  /** Blocks that left the best chain at some point: the only ones a "reverted" may name. */
  left: Set<string>;
  payments: Map<string, Payment>;
}

/** A drill that has done nothing yet over `peers`, started now. */
export function startDrill(peers: HostilePeers): HostileDrill {
  const { product } = peers;
  return {
    ...peers,
    started: Date.now(),
    api: async (method, path, body) => {
      const answer = await product.api(method, path, body);
      if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as Record<string, unknown>;
    },
    watches: new Map(),
    payable: { BTC: [], ETH: [], TRX: [] },
    fresh: { BTC: [], ETH: [], TRX: [] },
    xpubWebhooks: [],
    listReplacedAt: Infinity,
    performed: [],
    left: new Set(),
    payments: new Map(),
  };
}

/** `address` watched by `webhookId` from `since` on. */
export function watch(drill: HostileDrill, address: string, webhookId: number, origin: string, since = Date.now()): void {
  drill.watches.set(address, [...(drill.watches.get(address) ?? []), { webhookId, since, origin }]);
}

/** Addresses the payments on `coin` may go to, paid first as they are fresh. */
export function payables(drill: HostileDrill, coin: ScannedCoin, ...addresses: string[]): void {
  drill.payable[coin].push(...addresses);
  drill.fresh[coin].push(...addresses);
}
