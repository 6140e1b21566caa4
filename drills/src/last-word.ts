/**
 * What a subscriber concludes from the notifications it received, held against what the chain says
 * at the end: the judge of the hostile-node drill. Pure: the drill gathers the notifications, the
 * payments and the chains' final state; this module compares them.
 */

import { TRANSFER_EVENT_RANK } from "@chaingate/contracts";

/** The fields of a `transfer.matched` notification the verdict reads: a block's transfer or revert, or a mempool event (no block). */
export interface TransferNotification {
  event_id: string;
  type: keyof typeof TRANSFER_EVENT_RANK;
  webhook_id: number;
  txid: string;
  position: number | null;
  currency: string;
  /** Absent in mempool events ("pending" and its outcome). */
  block?: { hash: string; height: number };
  /** Absent in events from before generations existed: read as 0 (transfer-matched.ts). */
  generation?: number;
  /** The event's number in its webhook's history (the order it was published in, whatever order pushes arrived in). */
  sequence?: number;
}

/** A payment to a watched address, one per webhook watching it, with the chain's final word on it. */
export interface WatchedPayment {
  webhookId: number;
  txid: string;
  position: number | null;
  currency: string;
  /** The block holding the transaction in the final best chain; null when it is in none. */
  finalBlock: string | null;
  /** The address was watched at or before its final block's time: a notification is owed. */
  owed: boolean;
  /** Where the address came from (a client's list, an extended key, added during a NATS pause, …). */
  origin: string;
  /** Anything that helps read a failure (when the address was watched, when its block was mined). */
  note?: string;
}

/** The subscriber's key: the last event on it is the truth (transfer-matched.ts). */
export const subscriberKey = (n: { webhook_id: number; txid: string; position: number | null; currency: string }) =>
  `${n.webhook_id}:${n.txid}:${n.position ?? "-"}:${n.currency}`;
const paymentKey = (p: WatchedPayment) =>
  subscriberKey({ webhook_id: p.webhookId, txid: p.txid, position: p.position, currency: p.currency });

const generationOf = (n: TransferNotification) => n.generation ?? 0;
/** A word that says the transaction is not (or no longer) in a block of the best chain. */
const NOT_IN_A_BLOCK = new Set<TransferNotification["type"]>(["reverted", "replaced", "dropped", "double_spent"]);

/**
 * The documented rule (transfer-matched.ts): the event with the highest generation, and within one
 * generation "pending", then its outcome, then "transfer", then "reverted" (TRANSFER_EVENT_RANK);
 * what the rule leaves equal stays in arrival order.
 */
export function lastWord(events: readonly TransferNotification[]): TransferNotification | undefined {
  const ordered = events.map((event, arrival) => ({ event, arrival }));
  ordered.sort(
    (a, b) =>
      generationOf(a.event) - generationOf(b.event) ||
      TRANSFER_EVENT_RANK[a.event.type] - TRANSFER_EVENT_RANK[b.event.type] ||
      a.arrival - b.arrival,
  );
  return ordered.at(-1)?.event;
}

/** The same rule applied per block: the blocks whose own last word is "transfer" (where the subscriber believes the transfer stands). */
export function standingBlocks(events: readonly TransferNotification[]): string[] {
  const byBlock = new Map<string, TransferNotification[]>();
  for (const event of events) if (event.block) byBlock.set(event.block.hash, [...(byBlock.get(event.block.hash) ?? []), event]);
  return [...byBlock].filter(([, blockEvents]) => lastWord(blockEvents)?.type === "transfer").map(([hash]) => hash);
}

export interface Verdict {
  payments: number;
  notifications: number;
  reverts: number;
  /** Copies beyond the first of one event id. */
  duplicates: number;
  /** The documented last word contradicts the final chain. */
  falseFinalWords: { key: string; origin: string; finalBlock: string | null; lastWord: string; events: string[] }[];
  /** The same read per block (a transfer moved to another block is judged by each block's own last word). */
  falseFinalWordsPerBlock: { key: string; finalBlock: string | null; standing: string[] }[];
  /** Owed, in the final chain, never notified. */
  missed: { key: string; origin: string; finalBlock: string | null; note?: string }[];
  /** "reverted" for a block that never left the best chain. */
  falseReverts: { key: string; block: string; eventId: string }[];
  /** Notifications for no watched payment. */
  unexpected: { key: string; eventId: string }[];
  /** Two event ids for one event (same key, type, block, generation), or one id with different contents. */
  duplicatesUnderNewIds: { key: string; eventIds: string[] }[];
  /** Mempool events received ("pending" and outcomes), distinct, by type. */
  mempoolEvents: Partial<Record<TransferNotification["type"], number>>;
  /** A "pending" that arrived after a block's event of the same transfer and generation (events of one transfer come in order). */
  pendingOutOfOrder: { key: string; events: string[] }[];
}

const describe = (n: TransferNotification) =>
  `${n.type}@${n.block ? `${n.block.hash.slice(0, 12)}#${n.block.height}` : "mempool"} g${generationOf(n)}`;
const placeOf = (n: TransferNotification) => n.block?.hash ?? "mempool";

export function judge(
  payments: readonly WatchedPayment[],
  received: readonly TransferNotification[],
  leftBlocks: ReadonlySet<string>,
): Verdict {
  const byKey = new Map<string, TransferNotification[]>();
  const byEventId = new Map<string, TransferNotification[]>();
  for (const event of received) {
    byKey.set(subscriberKey(event), [...(byKey.get(subscriberKey(event)) ?? []), event]);
    byEventId.set(event.event_id, [...(byEventId.get(event.event_id) ?? []), event]);
  }
  const distinct = [...byEventId.values()].map((copies) => copies[0]!);
  const expected = new Map(payments.map((p) => [paymentKey(p), p]));
  const verdict: Verdict = {
    payments: expected.size,
    notifications: received.length,
    reverts: distinct.filter((n) => n.type === "reverted").length,
    duplicates: received.length - byEventId.size,
    falseFinalWords: [],
    falseFinalWordsPerBlock: [],
    missed: [],
    falseReverts: [],
    unexpected: [],
    duplicatesUnderNewIds: [],
    mempoolEvents: {},
    pendingOutOfOrder: [],
  };
  for (const [key, payment] of expected) {
    const events = byKey.get(key) ?? [];
    if (events.length === 0) {
      if (payment.owed && payment.finalBlock !== null)
        verdict.missed.push({ key, origin: payment.origin, finalBlock: payment.finalBlock, note: payment.note });
      continue;
    }
    const last = lastWord(events)!;
    const truthful =
      payment.finalBlock === null ? NOT_IN_A_BLOCK.has(last.type) : last.type === "transfer" && last.block?.hash === payment.finalBlock;
    if (!truthful)
      verdict.falseFinalWords.push({
        key,
        origin: payment.origin,
        finalBlock: payment.finalBlock,
        lastWord: describe(last),
        events: events.map(describe),
      });
    const standing = standingBlocks(events);
    const truthfulPerBlock =
      payment.finalBlock === null ? standing.length === 0 : standing.length === 1 && standing[0] === payment.finalBlock;
    if (!truthfulPerBlock) verdict.falseFinalWordsPerBlock.push({ key, finalBlock: payment.finalBlock, standing });
    // In the webhook's history order: retried pushes may arrive in any order.
    const history = [...events].sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
    const pendingAfterBlock = history.some(
      (e, i) => e.type === "pending" && history.slice(0, i).some((earlier) => earlier.block && generationOf(earlier) === generationOf(e)),
    );
    if (pendingAfterBlock) verdict.pendingOutOfOrder.push({ key, events: events.map(describe) });
  }
  for (const event of distinct) {
    if (!event.block) verdict.mempoolEvents[event.type] = (verdict.mempoolEvents[event.type] ?? 0) + 1;
    if (!expected.has(subscriberKey(event))) verdict.unexpected.push({ key: subscriberKey(event), eventId: event.event_id });
    if (event.type === "reverted" && event.block && !leftBlocks.has(event.block.hash))
      verdict.falseReverts.push({ key: subscriberKey(event), block: event.block.hash, eventId: event.event_id });
  }
  const sameEvent = new Map<string, Set<string>>();
  for (const event of distinct) {
    const identity = `${subscriberKey(event)}|${event.type}|${placeOf(event)}|${generationOf(event)}`;
    sameEvent.set(identity, (sameEvent.get(identity) ?? new Set()).add(event.event_id));
  }
  for (const [identity, ids] of sameEvent) if (ids.size > 1) verdict.duplicatesUnderNewIds.push({ key: identity, eventIds: [...ids] });
  for (const [eventId, copies] of byEventId) {
    if (new Set(copies.map((c) => `${subscriberKey(c)}|${c.type}|${placeOf(c)}|${generationOf(c)}`)).size > 1)
      verdict.duplicatesUnderNewIds.push({ key: subscriberKey(copies[0]!), eventIds: [eventId] });
  }
  return verdict;
}
