/**
 * An event on the bus: its stream, its subjects, the zod schema of its payload and the rule that
 * makes its `Nats-Msg-Id` (deterministic, so a republish after a crash is dropped as a duplicate).
 */
import type { z } from "zod";

export const COINS = ["BTC", "ETH", "TRX"] as const;
export type Coin = (typeof COINS)[number];

export interface EventContract<Schema extends z.ZodType = z.ZodType> {
  /** e.g. "transfer.matched" */
  name: string;
  /** JetStream stream that stores it, e.g. "TRANSFERS" */
  stream: string;
  /** The subjects the stream captures, e.g. "transfer.matched.>" */
  streamSubjects: string;
  schema: Schema;
  /** The concrete subject for one payload, e.g. "transfer.matched.btc". */
  subject(payload: z.infer<Schema>): string;
  messageId(payload: z.infer<Schema>): string;
}

export type EventPayload<Contract extends EventContract> = z.infer<Contract["schema"]>;

export function coinSubject(prefix: string, coin: Coin): string {
  return `${prefix}.${coin.toLowerCase()}`;
}
