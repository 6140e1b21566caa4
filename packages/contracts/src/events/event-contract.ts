/**
 * An event on the bus: its stream, its subjects, the zod schema of its payload and the rule that
 * makes its `Nats-Msg-Id` (deterministic, so a republish after a crash is dropped as a duplicate).
 */
import { BUILT_IN_COINS } from "@chaingate/chain-registry";
import { z } from "../zod.ts";

/** The built-in coins (the spec's): BTC, ETH, TRX. */
export const COINS = BUILT_IN_COINS;
/**
 * A chain's name in webhooks and events: a built-in coin, or a configured EVM chain's name in
 * capitals (EVM_CHAINS: `POLYGON`). Which ones a deployment serves is its chain registry's.
 */
export type Coin = string;
/** How any coin is written (the registry's rule); events take any, the API checks the deployment's. */
export const COIN_PATTERN = /^[A-Z][A-Z0-9]{1,19}$/;
export const coinSchema = z.string().regex(COIN_PATTERN);

/** Stream settings a contract needs beyond the bus's defaults (7 days' max age, no per-subject limit). */
export interface StreamOptions {
  /**
   * Every subject of the stream when several contracts share it, so that ensuring any one of them
   * ensures the whole stream (a process that knows only one never narrows it).
   */
  subjects?: readonly string[];
  /** Keep only the newest N messages of each subject: with 1 the stream is a compacted snapshot. */
  maxMsgsPerSubject?: number;
  /** Discard messages older than this; 0 keeps them forever. Default: the bus's 7 days. */
  maxAgeMs?: number;
}

export interface EventContract<Schema extends z.ZodType = z.ZodType> {
  /** e.g. "transfer.matched" */
  name: string;
  /** JetStream stream that stores it, e.g. "TRANSFERS" */
  stream: string;
  /** The subjects the stream captures, e.g. "transfer.matched.>" */
  streamSubjects: string;
  /** Every contract of one stream must give the same options (the bus refuses a mismatch). */
  streamOptions?: StreamOptions;
  schema: Schema;
  /** The concrete subject for one payload, e.g. "transfer.matched.btc". */
  subject(payload: z.infer<Schema>): string;
  messageId(payload: z.infer<Schema>): string;
}

export type EventPayload<Contract extends EventContract> = z.infer<Contract["schema"]>;

export function coinSubject(prefix: string, coin: Coin): string {
  return `${prefix}.${coin.toLowerCase()}`;
}
