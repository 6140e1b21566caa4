/**
 * The drill's verdict: per payment to a watched address, what the final best chain says against what
 * the subscriber heard last (last-word.ts), once everything owed has had time to arrive; and the
 * report written to .tmp/drills/hostile-node.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { judge, type TransferNotification, type Verdict, type WatchedPayment } from "../last-word.ts";
import { QUIET_MS, REPORT, SEED, SETTLE_TIMEOUT_MS, sleep, type FinalPlace, type HostileDrill } from "./hostile-drill.ts";
import type { DrillWebhooks } from "./drill-webhooks.ts";
import { finalPlace } from "./payments.ts";

/** Per payment and webhook watching its address: the final chain's word and whether it was owed. */
async function watchedPayments(drill: HostileDrill): Promise<WatchedPayment[]> {
  const { payments, watches, started, listReplacedAt, left } = drill;
  const places = new Map<string, FinalPlace | null>();
  for (const [key, payment] of payments) places.set(key, await finalPlace(drill, payment));
  return [...payments].flatMap(([key, payment]) =>
    (watches.get(payment.address) ?? []).map((w) => {
      const place = places.get(key)!;
      return {
        webhookId: w.webhookId,
        txid: payment.txid,
        position: payment.position,
        currency: payment.coin,
        finalBlock: place?.block ?? null,
        owed: place !== null && w.since <= place.timeMs,
        origin: `${payment.coin} ${w.origin}${w.origin.startsWith("xpub") && payment.sentAt > listReplacedAt ? ", paid after the PUT of the list" : ""}`,
        note: `watched since +${w.since - started} ms, paid at +${payment.sentAt - started} ms, block time +${place ? place.timeMs - started : "-"} ms${place && left.has(place.block) ? ", its block left the best chain and came back" : ""}`,
      };
    }),
  );
}

/** The verdict once nothing owed is missing and no block has a false final word (or the settle timeout passed), after a quiet spell. */
export async function settledVerdict(drill: HostileDrill, webhooks: DrillWebhooks): Promise<Verdict> {
  const watched = await watchedPayments(drill);
  const received = () =>
    Object.values(webhooks.all).flatMap((webhook) =>
      drill.product.notifications(webhook).map((n) => n.payload as unknown as TransferNotification),
    );
  const verdictNow = () => judge(watched, received(), drill.left);
  const settled = (v: Verdict) => v.missed.length + v.falseFinalWordsPerBlock.length === 0;
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (!settled(verdictNow()) && Date.now() < deadline) await sleep(500);
  await sleep(QUIET_MS);
  return verdictNow();
}

/** Which part of issue 16 owes a missed notification, from how its address came to be watched. */
const missedBecause = (origin: string) =>
  /NATS pause/.test(origin)
    ? "item 7"
    : /before the webhook|before xpub_ids|after the PUT/.test(origin)
      ? "item 8"
      : /xpub issued/.test(origin)
        ? "item 7"
        : "neither item 7 nor 8";

/** The registry's own lists at the end: which issued addresses each BTC webhook holds (items 7, 8). */
export async function registryHolds(drill: HostileDrill, webhooks: DrillWebhooks) {
  const issuedAddresses = [...drill.watches]
    .filter(([, list]) => list.some((w) => w.origin.startsWith("xpub")))
    .map(([address]) => address);
  return Object.fromEntries(
    await Promise.all(
      [webhooks.btcAuto, webhooks.btcLater].map(async (webhook) => {
        const stored = ((await drill.api("GET", `/api/v1/webhooks/${webhook.id}`)).data as { addresses: string[] }).addresses;
        return [
          webhook.id,
          {
            issuedHeld: issuedAddresses.filter((a) => stored.includes(a)).length,
            issuedTotal: issuedAddresses.length,
            addresses: stored.length,
          },
        ];
      }),
    ),
  );
}

/** How long the drill's parts took (ms). */
export interface DrillTimings {
  setupMs: number;
  paymentsEndedMs: number;
}

/** Writes the report to REPORT and a summary line to stdout. */
export function writeReport(
  drill: HostileDrill,
  verdict: Verdict,
  timings: DrillTimings,
  holds: Awaited<ReturnType<typeof registryHolds>>,
): void {
  const { payments, left, performed, proxies, started } = drill;
  const { setupMs, paymentsEndedMs } = timings;
  const report = {
    seed: SEED,
    payments: verdict.payments,
    /** Of the payments made, those through a contract (ETH, TRX). */
    internalPayments: [...payments.values()].filter((p) => p.coin !== "BTC" && p.position !== null).length,
    notifications: verdict.notifications,
    reverts: verdict.reverts,
    mempoolEvents: verdict.mempoolEvents,
    pendingOutOfOrder: verdict.pendingOutOfOrder.length,
    falseFinalWords: verdict.falseFinalWords.length,
    falseFinalWordsPerBlock: verdict.falseFinalWordsPerBlock.length,
    missed: verdict.missed.length,
    missedBecause: Object.fromEntries(
      ["item 7", "item 8", "neither item 7 nor 8"].map((item) => [
        item,
        verdict.missed.filter((m) => missedBecause(m.origin) === item).length,
      ]),
    ),
    duplicates: verdict.duplicates,
    falseReverts: verdict.falseReverts.length,
    unexpected: verdict.unexpected.length,
    blocksThatLeft: left.size,
    setupMs,
    paymentsEndedMs,
    settledAfterMs: Date.now() - started - paymentsEndedMs,
    performed,
    registryHolds: holds,
    proxies: Object.fromEntries(Object.entries(proxies).map(([coin, proxy]) => [coin, proxy.counters()])),
    details: {
      missed: verdict.missed,
      falseFinalWords: verdict.falseFinalWords,
      falseFinalWordsPerBlock: verdict.falseFinalWordsPerBlock,
      falseReverts: verdict.falseReverts,
      unexpected: verdict.unexpected,
      duplicatesUnderNewIds: verdict.duplicatesUnderNewIds,
      pendingOutOfOrder: verdict.pendingOutOfOrder,
    },
  };
  mkdirSync(new URL(".", `file://${REPORT}`), { recursive: true });
  writeFileSync(REPORT, JSON.stringify(report, null, 2));
  process.stdout.write(
    `hostile node: seed ${SEED}, payments ${report.payments} (internal ${report.internalPayments}), notifications ${report.notifications}, reverts ${report.reverts}, mempool events ${JSON.stringify(report.mempoolEvents)} (out of order ${report.pendingOutOfOrder}), ` +
      `false final words ${report.falseFinalWords} (per block ${report.falseFinalWordsPerBlock}), missed ${report.missed} ${JSON.stringify(report.missedBecause)}, duplicates ${report.duplicates}, ` +
      `false reverts ${report.falseReverts}, unexpected ${report.unexpected}; full report ${REPORT}\n`,
  );
}
