/**
 * The end of the gap-proof drill: wait until the chains are scanned and nothing is left to send,
 * read each webhook's whole history from the delivery store (the cursor from 0), and put the
 * figures together.
 */
import type { Notification } from "@chaingate/api-client";
import type { NotificationStack } from "../notification-stack.ts";
import { scannedHeight } from "../scanner-watch.ts";
import type { HandledEvent } from "./drill-subscriber.ts";
import { sleep, type GapDrill } from "./gap-drill.ts";

/** One event of a webhook's history as the store holds it. */
export interface StoredEvent {
  sequence: number;
  notification: Notification;
}

const SETTLE_TIMEOUT_MS = 90_000;
/** Nothing pending this many checks in a row: the delivery is done. */
const QUIET_CHECKS = 4;

/** Waits until the scanner processed every chain's tip, then until no webhook has a delivery pending or held. */
export async function settle(drill: GapDrill): Promise<void> {
  const { product, node, anvil, tron } = drill;
  const tips = {
    BTC: await node.rpc<number>("getblockcount"),
    ETH: Number(await anvil.rpc<string>("eth_blockNumber")),
    TRX: ((await tron.tronWeb.trx.getCurrentBlock()) as { block_header: { raw_data: { number: number } } }).block_header.raw_data.number,
  };
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (const [coin, tip] of Object.entries(tips) as Array<["BTC" | "ETH" | "TRX", number]>) {
    while ((await scannedHeight(product.scannerUrl, coin)) < tip) {
      if (Date.now() > deadline) throw new Error(`the scanner did not reach ${coin} ${tip}`);
      await sleep(200);
    }
  }
  let quiet = 0;
  while (quiet < QUIET_CHECKS) {
    if (Date.now() > deadline) throw new Error("deliveries still pending after the drill");
    quiet =
      (await unsent(
        product,
        Object.values(drill.webhooks).map((w) => w.id),
      )) === 0
        ? quiet + 1
        : 0;
    await sleep(500);
  }
}

/** Deliveries still to be sent (pending or held) over `webhookIds`. */
async function unsent(product: NotificationStack, webhookIds: number[]): Promise<number> {
  let count = 0;
  for (const id of webhookIds)
    for (const status of ["pending", "held"]) {
      const answer = await product.api("GET", `/api/v1/webhooks/${id}/deliveries?status=${status}`);
      count += (answer.body as { data: unknown[] }).data.length;
    }
  return count;
}

/** The webhook's whole history, read by cursor from the start, as the store holds it. */
export async function readHistory(product: NotificationStack, webhookId: number): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (let after = 0; ; ) {
    const answer = await product.api("GET", `/api/v1/webhooks/${webhookId}/events?after=${after}&limit=500`);
    const page = answer.body as { data: Array<{ sequence: number; body: string }>; meta: { next_after: number; has_more: boolean } };
    events.push(...page.data.map((item) => ({ sequence: item.sequence, notification: JSON.parse(item.body) as Notification })));
    if (!page.meta.has_more || !page.data.length) return events;
    after = page.meta.next_after;
  }
}

/** Per webhook: what arrived how, and what its history holds by type. */
export function webhookFigures(stored: readonly StoredEvent[], handled: readonly HandledEvent[]) {
  const byType: Record<string, number> = {};
  for (const { notification } of stored) byType[notification.type] = (byType[notification.type] ?? 0) + 1;
  return {
    events: stored.length,
    byType,
    handedOutFromPushes: handled.filter((h) => h.via === "push").length,
    readByCursor: handled.filter((h) => h.via === "cursor").length,
  };
}
