/**
 * Coverage heartbeats (issue #30) on a real Postgres and bus: a webhook with `heartbeat_blocks`
 * gets, at every processed block whose height is a multiple of it, a numbered `coverage` event
 * that comes after every transfer the scanner published before that block (also when hundreds are
 * still being stored when the block arrives); other webhooks get none.
 */
import { blockProcessed, coverageNotificationSchema, transferMatched, type EventPayload } from "@chaingate/contracts";
import { expect } from "vitest";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const it = deliveryTest.extend<{ blocks: (block: Partial<EventPayload<typeof blockProcessed>> & { height: number }) => Promise<void> }>({
  blocks: async ({ busConnection }, use) => {
    await busConnection.ensureStreams([blockProcessed]);
    await use(async (block) => {
      await busConnection.publish(blockProcessed, {
        coin: "BTC",
        hash: `hash${block.height}`,
        parent_hash: null,
        time: "2026-11-27T10:00:00.000Z",
        tx_count: 1,
        matched_count: 0,
        ...block,
      });
    });
  },
});
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

const bodiesAt = (harness: DeliveryHarness, path: string) =>
  harness.receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Record<string, unknown> & { sequence: number });

async function createWithHeartbeat(harness: DeliveryHarness, path: string, heartbeatBlocks: number | null, confirmations = 1) {
  const created = await harness.api("POST", "/api/v1/webhooks", 1, {
    coin: "BTC",
    webhook_url: `${harness.receiver.url}${path}`,
    addresses: ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
    heartbeat_blocks: heartbeatBlocks,
    confirmations,
  });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({ heartbeat_blocks: heartbeatBlocks, last_sequence: 0 });
  return created.body.data.id as number;
}

it("sends a numbered coverage event after everything published before the block, at heights that are multiples of the setting", async ({
  harness,
  blocks,
}) => {
  const covered = await createWithHeartbeat(harness, "/covered", 2, 3);
  const quiet = await createWithHeartbeat(harness, "/quiet", null);
  const transfers = Array.from({ length: 300 }, () => transferFor(covered));
  for (const transfer of transfers) await harness.bus.publish(transferMatched, transfer);
  await harness.bus.publish(transferMatched, transferFor(quiet));
  // Published at once: most of the 300 are still being stored when the block arrives.
  await blocks({ height: 10, chain: "bip122:0f9188f13cb7b2c71f2a335e3a4fc328" });
  await blocks({ height: 11 });

  await expect.poll(() => bodiesAt(harness, "/covered").filter((b) => b.type === "coverage").length, { timeout: 15_000 }).toBe(1);
  const coverage = bodiesAt(harness, "/covered").find((b) => b.type === "coverage")!;
  expect(coverageNotificationSchema.parse(coverage)).toMatchObject({
    sequence: 301,
    version: 1,
    webhook_id: covered,
    coin: "BTC",
    // The chain the scanner's block names.
    chain: "bip122:0f9188f13cb7b2c71f2a335e3a4fc328",
    block: { height: 10, hash: "hash10" },
    confirmed_height: 8,
  });
  await expect.poll(() => bodiesAt(harness, "/covered").length, { timeout: 15_000 }).toBe(301);
  expect(
    bodiesAt(harness, "/covered")
      .filter((b) => b.type === "transfer")
      .every((b) => b.sequence <= 300),
  ).toBe(true);

  // The next multiple gets the next one; a webhook without the setting gets none.
  await blocks({ height: 12 });
  await expect
    .poll(() =>
      bodiesAt(harness, "/covered")
        .filter((b) => b.type === "coverage")
        .map((b) => b.sequence),
    )
    .toEqual([301, 302]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(bodiesAt(harness, "/quiet").map((b) => b.type)).toEqual(["transfer"]);
  const answer = await harness.api("GET", `/api/v1/webhooks/${covered}`);
  expect(answer.body.data).toMatchObject({ heartbeat_blocks: 2, last_sequence: 302 });
});

it("validates heartbeat_blocks and lets a PUT turn heartbeats on and off", async ({ harness }) => {
  const id = await createWithHeartbeat(harness, "/settings", null);
  for (const [value, message] of [
    [0, "The heartbeat blocks field must be at least 1."],
    [10_001, "The heartbeat blocks field must not be greater than 10000."],
    [1.5, "The heartbeat blocks field must be an integer or null."],
    ["5", "The heartbeat blocks field must be an integer or null."],
  ] as const) {
    const refused = await harness.api("PUT", `/api/v1/webhooks/${id}`, 1, { heartbeat_blocks: value });
    expect(refused.status, String(value)).toBe(422);
    expect(refused.body).toMatchObject({ errors: { heartbeat_blocks: [message] } });
  }
  expect((await harness.api("PUT", `/api/v1/webhooks/${id}`, 1, { heartbeat_blocks: 6 })).body.data).toMatchObject({ heartbeat_blocks: 6 });
  expect((await harness.api("PUT", `/api/v1/webhooks/${id}`, 1, { heartbeat_blocks: null })).body.data).toMatchObject({
    heartbeat_blocks: null,
  });
});

it("by the clock (heartbeat_seconds): a coverage event for the newest processed block after what it covers, and again each period without a new block", async ({
  harness,
  blocks,
}) => {
  const created = await harness.api("POST", "/api/v1/webhooks", 1, {
    coin: "ETH",
    webhook_url: `${harness.receiver.url}/clock`,
    addresses: ["0x" + "2".repeat(40)],
    heartbeat_seconds: 10,
    confirmations: 2,
  });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({ heartbeat_seconds: 10, heartbeat_blocks: null });
  const id = created.body.data.id as number;
  // No Ethereum block processed yet: nothing to cover.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(bodiesAt(harness, "/clock")).toEqual([]);

  for (let i = 0; i < 50; i++) await harness.bus.publish(transferMatched, transferFor(id, "ETH"));
  // Published at once: most of the 50 are still being stored when the first tick sees the block.
  await blocks({ coin: "ETH", height: 100, chain: "eip155:1" });
  await expect.poll(() => bodiesAt(harness, "/clock").filter((b) => b.type === "coverage").length, { timeout: 15_000 }).toBe(1);
  const first = bodiesAt(harness, "/clock").find((b) => b.type === "coverage")!;
  expect(coverageNotificationSchema.parse(first)).toMatchObject({
    sequence: 51,
    webhook_id: id,
    coin: "ETH",
    chain: "eip155:1",
    block: { height: 100, hash: "hash100" },
    confirmed_height: 99,
  });

  // No block comes; the next period still brings one, for the same block, numbered after the first.
  await expect.poll(() => bodiesAt(harness, "/clock").filter((b) => b.type === "coverage").length, { timeout: 15_000 }).toBe(2);
  const second = bodiesAt(harness, "/clock").filter((b) => b.type === "coverage")[1]!;
  expect(second).toMatchObject({ sequence: 52, block: { height: 100, hash: "hash100" } });
  expect(second.event_id).not.toBe(first.event_id);

  // Turned off: none more.
  expect((await harness.api("PUT", `/api/v1/webhooks/${id}`, 1, { heartbeat_seconds: null })).body.data).toMatchObject({
    heartbeat_seconds: null,
  });
  for (const [value, message] of [
    [9, "The heartbeat seconds field must be at least 10."],
    [86_401, "The heartbeat seconds field must not be greater than 86400."],
    [2.5, "The heartbeat seconds field must be an integer or null."],
  ] as const) {
    const refused = await harness.api("PUT", `/api/v1/webhooks/${id}`, 1, { heartbeat_seconds: value });
    expect(refused.status, String(value)).toBe(422);
    expect(refused.body).toMatchObject({ errors: { heartbeat_seconds: [message] } });
  }
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  expect(bodiesAt(harness, "/clock").filter((b) => b.type === "coverage")).toHaveLength(2);
});
