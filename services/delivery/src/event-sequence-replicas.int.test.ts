/**
 * Three delivery processes share one `transfer.matched` consumer and number the events of four
 * webhooks at once; one is SIGKILLed while batches are being stored and sent. Every webhook's
 * events still carry 1..N, each number once, each event one number, the same on every push of it.
 */
import { transferMatched } from "@chaingate/contracts";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import { stopChild } from "@chaingate/testing";
import { expect } from "vitest";
import { startDeliveryProcess, transferFor } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const WEBHOOKS = 4;
const EVENTS_PER_WEBHOOK = 150;

const it = deliveryTest;

it("replicas never give one number twice or skip one, also when one is killed mid-batch", async ({
  database,
  bus,
  busConnection,
  receiver,
}) => {
  receiver.on("/slow", (_, res) => void setTimeout(() => res.end("ok"), 5));
  const replicas = [];
  for (let i = 0; i < 3; i++) replicas.push(await startDeliveryProcess(database.connectionString, bus));
  try {
    const webhookIds: number[] = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const created = await fetch(`${replicas[0]!.url}/api/v1/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", [ACCOUNT_ID_HEADER]: "1" },
        body: JSON.stringify({
          coin: "BTC",
          webhook_url: `${receiver.url}/slow`,
          addresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
        }),
      });
      webhookIds.push(((await created.json()) as { data: { id: number } }).data.id);
    }
    // Interleaved, so every batch any replica pulls holds several webhooks' events.
    const published: string[] = [];
    const publishing = (async () => {
      for (let i = 0; i < EVENTS_PER_WEBHOOK; i++)
        for (const webhookId of webhookIds) {
          const event = transferFor(webhookId);
          published.push(event.event_id);
          await busConnection.publish(transferMatched, event);
        }
    })();
    const distinct = () => new Set(receiver.received.map((r) => r.headers["webhook-id"])).size;
    await expect.poll(distinct, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(WEBHOOKS * 20);
    const total = WEBHOOKS * EVENTS_PER_WEBHOOK;
    replicas[1]!.child.process.kill("SIGKILL");
    expect(distinct()).toBeLessThan(total);
    await stopChild(replicas[1]!.child.process);
    await publishing;
    await expect.poll(distinct, { timeout: 60_000 }).toBe(total);

    // Stored: per webhook exactly 1..N, one job per event.
    const rows = await database.query<{ webhook_id: string; event_id: string; sequence: string }>(
      `select webhook_id, event_id, sequence from delivery.delivery_jobs order by webhook_id, sequence`,
    );
    expect(rows).toHaveLength(total);
    for (const webhookId of webhookIds) {
      const sequences = rows.filter((row) => Number(row.webhook_id) === webhookId).map((row) => Number(row.sequence));
      expect(sequences).toEqual(Array.from({ length: EVENTS_PER_WEBHOOK }, (_, i) => i + 1));
    }
    const numberOf = new Map(rows.map((row) => [row.event_id, Number(row.sequence)]));
    expect([...numberOf.keys()].sort()).toEqual([...published].sort());
    // Pushed: every push of an event (a repeat after the kill too) carries its one number, in the header and the body.
    for (const push of receiver.received) {
      const eventId = push.headers["webhook-id"] as string;
      expect(push.headers["x-service-sequence"], eventId).toBe(String(numberOf.get(eventId)));
      expect((JSON.parse(push.body) as { sequence: number }).sequence, eventId).toBe(numberOf.get(eventId));
    }
  } finally {
    for (const replica of replicas) await stopChild(replica.child.process);
  }
}, 120_000);
