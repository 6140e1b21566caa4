/**
 * SIGKILL the delivery process while a batch is being delivered, then start it again: every event
 * reaches the receiver, and a notification sent twice carries the same event id both times.
 */
import { transferMatched, type EventPayload } from "@chaingate/contracts";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import { stopChild } from "@chaingate/testing";
import { expect } from "vitest";
import { deliveryTest } from "./testing/delivery-fixtures.ts";
import { startDeliveryProcess } from "./testing/index.ts";

const EVENTS = 200;

// The test kills and starts the process itself; its database, bus and receiver are the file's.
const it = deliveryTest;

it("a kill mid-batch loses nothing; duplicates carry the same event id", async ({ database, bus, busConnection, receiver }) => {
  // A slow subscriber keeps attempts in flight when the kill lands.
  receiver.on("/slow", (_, res) => void setTimeout(() => res.end("ok"), 40));
  const started = await startDeliveryProcess(database.connectionString, bus);
  const { port } = started;
  let { child } = started;
  try {
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", [ACCOUNT_ID_HEADER]: "1" },
      body: JSON.stringify({ coin: "ETH", webhook_url: `${receiver.url}/slow`, addresses: ["0x" + "1".repeat(40)] }),
    });
    const webhookId = ((await created.json()) as { data: { id: number } }).data.id;
    const eventIds: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const event: EventPayload<typeof transferMatched> = {
        event_id: `evt_kill_${i}`,
        type: "transfer",
        webhook_id: webhookId,
        coin: "ETH",
        currency: "ETH",
        from: null,
        to: "0x" + "1".repeat(40),
        watched_address: "0x" + "1".repeat(40),
        amount: "1",
        raw_amount: "1000000000000000000",
        decimals: 18,
        token_contract: null,
        txid: `0x${i.toString(16).padStart(64, "0")}`,
        position: null,
        block: { height: i, hash: `0x${i}`, time: "2026-11-22T10:00:00.000Z" },
        execution_status: "SUCCESS",
        confirmations: 1,
      };
      eventIds.push(event.event_id);
      await busConnection.publish(transferMatched, event);
    }
    await expect.poll(() => receiver.received.length, { timeout: 20_000, interval: 10 }).toBeGreaterThanOrEqual(EVENTS / 4);
    child.process.kill("SIGKILL");
    await stopChild(child.process);
    const deliveredBeforeKill = new Set(receiver.received.map((r) => r.headers["webhook-id"])).size;
    expect(deliveredBeforeKill).toBeLessThan(EVENTS);
    ({ child } = await startDeliveryProcess(database.connectionString, bus, port));
    await expect.poll(() => new Set(receiver.received.map((r) => r.headers["webhook-id"])).size, { timeout: 30_000 }).toBe(EVENTS);
    expect([...new Set(receiver.received.map((r) => r.headers["webhook-id"]))].sort()).toEqual([...eventIds].sort());
    // Every request, first or repeated, names its event in the header and the body alike.
    for (const request of receiver.received)
      expect((JSON.parse(request.body) as { event_id: string }).event_id).toBe(request.headers["webhook-id"]);
  } finally {
    await stopChild(child.process);
  }
}, 90_000);
