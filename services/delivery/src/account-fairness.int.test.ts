/**
 * One tenant cannot hurt another (issue #21): account A's 40 webhooks point at a server that
 * accepts connections and never answers, each with 10 test events queued (the per-minute quota),
 * older than anything of account B. B's notifications still go out at once: A holds at most its
 * per-account share of the slots, and free slots go to the account with fewer in flight. Real
 * Postgres, NATS, a blackhole TCP server and a local receiver; the service in this process.
 */
import { fileResource } from "@chaingate/testing/fixtures";
import { transferMatched } from "@chaingate/contracts";
import { expect } from "vitest";
import { startBlackholeServer, transferFor, type BlackholeServer } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

const ACCOUNT_A = 21;
const ACCOUNT_B = 22;
const A_WEBHOOKS = 40;
/** QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE's default. */
const TESTS_PER_WEBHOOK = 10;
const B_EVENTS = 20;
const TIMEOUT_MS = 4_000;
/** DELIVERY_PER_ACCOUNT_CONCURRENCY's default. */
const PER_ACCOUNT = 64;

deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS) } });

/** The dead endpoints: a server that accepts connections and never answers. */
const it = deliveryTest.extend<{ blackhole: BlackholeServer }>({
  blackhole: fileResource(startBlackholeServer, (server) => server.close()),
});

it("a flood of test events to one account's dead endpoints does not delay another account's notifications", async ({
  harness,
  blackhole,
}) => {
  const { bus, receiver, api } = harness;
  const deadHooks = [];
  for (let n = 0; n < A_WEBHOOKS; n++)
    deadHooks.push(await harness.createWebhook({ path: "", url: `${blackhole.url}/a${n}`, coin: "ETH", accountId: ACCOUNT_A }));
  const healthy = await harness.createWebhook({ path: "/b", coin: "ETH", accountId: ACCOUNT_B });
  await Promise.all(
    deadHooks.map(async (hook) => {
      for (let n = 0; n < TESTS_PER_WEBHOOK; n++)
        expect((await api("POST", `/api/v1/webhooks/${hook.id}/test`, ACCOUNT_A)).status).toBe(202);
    }),
  );
  // A's attempts hold the slots they can get before B has anything due.
  await expect.poll(() => blackhole.open(), { timeout: 10_000 }).toBeGreaterThanOrEqual(PER_ACCOUNT);
  const publishedAt = new Map<string, number>();
  for (let n = 0; n < B_EVENTS; n++) {
    const event = transferFor(healthy.id, "ETH");
    publishedAt.set(event.event_id, Date.now());
    await bus.publish(transferMatched, event);
  }
  await expect.poll(() => receiver.received.filter((r) => r.path === "/b").length, { timeout: 3 * TIMEOUT_MS }).toBe(B_EVENTS);
  const latencies = receiver.received.filter((r) => r.path === "/b").map((r) => r.at - publishedAt.get(r.headers["webhook-id"] as string)!);
  process.stdout.write(
    `account B: ${B_EVENTS} notifications, slowest ${Math.max(...latencies)} ms; account A: ${blackhole.accepted.length} attempts, at most ${blackhole.peakOpen()} in flight\n`,
  );
  // None waited for one of A's attempts to time out.
  expect(Math.max(...latencies)).toBeLessThan(TIMEOUT_MS / 2);
  expect(blackhole.peakOpen()).toBeLessThanOrEqual(PER_ACCOUNT);
});
