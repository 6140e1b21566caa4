/**
 * Mempool events (issue #29) through the delivery on a real Postgres and bus: a "pending" and its
 * outcome are numbered in the webhook's history in the order the scanner published them, among
 * its transfers, and the bodies are the published MempoolNotification.
 */
import { mempoolNotificationSchema, transferMatched, type MempoolTransferPayload } from "@chaingate/contracts";
import { expect } from "vitest";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest as it } from "./testing/delivery-fixtures.ts";

it.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

const bodiesAt = (harness: DeliveryHarness, path: string) =>
  harness.receiver.received
    .filter((r) => r.path === path)
    .map((r) => JSON.parse(r.body) as Record<string, unknown> & { type: string; sequence: number })
    .sort((a, b) => a.sequence - b.sequence);

/** The mempool event of a transfer like transferFor's: its transfer fields without the block's. */
function mempoolEventFor(webhookId: number, type: MempoolTransferPayload["type"], txid?: string): MempoolTransferPayload {
  const {
    block: _block,
    execution_status: _status,
    confirmations: _depth,
    internal: _internal,
    trace_address: _trace,
    ...fields
  } = transferFor(webhookId, "BTC", { chain: "bip122:000000000019d6689c085ae165831e93", direction: "in" });
  return {
    ...fields,
    ...(txid ? { txid } : {}),
    type,
    event_id: `evt_${type}_${txid ?? fields.txid}`.slice(0, 40),
    seen_at: new Date().toISOString(),
    replaceable: true,
    fee_rate: "12.5",
    conflicting_txid: type === "replaced" ? "ab".repeat(32) : null,
    generation: 0,
  };
}

it("a pending transfer, its replacement's pending, the original's 'replaced' and the replacement's transfer are numbered in order", async ({
  harness,
}) => {
  const created = await harness.api("POST", "/api/v1/webhooks", 1, {
    coin: "BTC",
    webhook_url: `${harness.receiver.url}/mempool`,
    addresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
    pending: true,
  });
  expect(created.status).toBe(201);
  const id = created.body.data.id as number;
  const original = mempoolEventFor(id, "pending");
  const replacement = mempoolEventFor(id, "pending");
  const replaced = { ...mempoolEventFor(id, "replaced", original.txid), conflicting_txid: replacement.txid };
  const mined = { ...transferFor(id, "BTC"), txid: replacement.txid };
  for (const event of [original, replacement, replaced, mined]) await harness.bus.publish(transferMatched, event);

  await expect.poll(() => bodiesAt(harness, "/mempool").length, { timeout: 10_000 }).toBe(4);
  const bodies = bodiesAt(harness, "/mempool");
  expect(bodies.map((body) => [body.type, body.sequence])).toEqual([
    ["pending", 1],
    ["pending", 2],
    ["replaced", 3],
    ["transfer", 4],
  ]);
  // The scanner's event as delivery completes it: version, direction, chain, the issuing key (none: listed by hand), its number.
  expect(bodies[0]).toEqual({ ...original, version: 1, xpub: null, sequence: 1 });
  for (const body of bodies.slice(0, 3)) expect(mempoolNotificationSchema.parse(body)).toEqual(body);
  expect(bodies[2]).toMatchObject({ txid: original.txid, conflicting_txid: replacement.txid });
});
