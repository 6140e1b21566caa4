/**
 * SSRF defences when delivering (issue 7), against a real delivery and a local receiver:
 * - DNS rebinding through the real resolver: a name in /etc/hosts points to a public address while
 *   the webhook is saved inactive (so nothing ever connects there), is then re-pointed at
 *   127.0.0.1 and the webhook activated; with WEBHOOK_ALLOW_CIDRS empty the attempt is refused by
 *   the connect-time check and logged as such, and the receiver on 127.0.0.1 gets nothing;
 * - a name pointing at a cloud platform address of the public range (Azure's WireServer) is refused
 *   at save, and, stored anyway (saved before the rule), refused when connecting;
 * - the attempt log the API returns says the address was not allowed, never which address it was:
 *   the subscriber controls the name, and would learn what internal names resolve to.
 * Redirects, never followed: redirects-not-followed.int.test.ts.
 */
import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { accessSync, appendFileSync, closeSync, constants, openSync, readFileSync, statSync, truncateSync, writeSync } from "node:fs";
import { transferMatched } from "@chaingate/contracts";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { DESTINATION_NOT_ALLOWED } from "./infra/send-notification.ts";
import { SAMPLE_ADDRESSES, transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

interface LoggedDelivery {
  status: string;
  attempt_log: Array<{ attempt: number; status_code: number | null; error: string | null }>;
}

async function deliveriesOf(harness: DeliveryHarness, webhookId: number): Promise<LoggedDelivery[]> {
  return (await harness.api("GET", `/api/v1/webhooks/${webhookId}/deliveries`)).body.data as unknown as LoggedDelivery[];
}

// WEBHOOK_ALLOW_CIDRS is left empty (its default): loopback is refused like any private address.
const it = deliveryTest;

const HOSTS = "/etc/hosts";
/** A public address (example.com's): resolved at save time, never connected to (the webhook is saved inactive). */
const PUBLIC_IP = "93.184.216.34";
/** Azure's WireServer: a public-range address that is a cloud platform's, never a subscriber's. */
const PLATFORM_IP = "168.63.129.16";
/** Dotted IPv4, or an IPv6 address of at least three colon-separated groups. */
const ANY_ADDRESS = /\b\d{1,3}(\.\d{1,3}){3}\b|[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}/i;
const hostsWritable = (() => {
  try {
    accessSync(HOSTS, constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();
const NOT_WRITABLE = `skipped: ${HOSTS} is not writable (the test needs root to point a name at a public, then a loopback address)`;
if (!hostsWritable) console.error(`DNS rebinding test ${NOT_WRITABLE}`);

describe("DNS rebinding between save and delivery", () => {
  const name = `rebind-${randomBytes(4).toString("hex")}.chaingate.test`;
  const platformName = `platform-${randomBytes(4).toString("hex")}.chaingate.test`;
  let originalSize = 0;
  let ipOffset = 0;

  beforeAll(() => {
    if (!hostsWritable) return;
    // Appended, then changed in place and truncated away: the file is never rewritten whole, so other
    // processes resolving `localhost` meanwhile always read a complete file.
    originalSize = statSync(HOSTS).size;
    const separator = originalSize > 0 && !readFileSync(HOSTS, "utf8").endsWith("\n") ? "\n" : "";
    ipOffset = originalSize + separator.length;
    appendFileSync(HOSTS, `${separator}${PUBLIC_IP} ${name}\n${PLATFORM_IP} ${platformName}\n`);
  });
  afterAll(() => {
    if (!hostsWritable) return;
    truncateSync(HOSTS, originalSize);
  });

  /** Re-points the name: the loopback address written over the public one, padded to its length. */
  function repointAtLoopback(): void {
    const descriptor = openSync(HOSTS, "r+");
    try {
      writeSync(descriptor, "127.0.0.1".padEnd(PUBLIC_IP.length, " "), ipOffset);
    } finally {
      closeSync(descriptor);
    }
  }

  const title =
    "a name re-pointed at 127.0.0.1 after the save-time check is refused when connecting, logged as such; the receiver gets nothing";
  it.skipIf(!hostsWritable)(hostsWritable ? title : `${title} (${NOT_WRITABLE})`, async ({ harness }) => {
    const { receiver } = harness;
    expect((await lookup(name, { all: true })).map((entry) => entry.address)).toEqual([PUBLIC_IP]);
    const port = new URL(receiver.url).port;
    // Saved while the name is public (the save-time check passes), inactive so nothing is sent.
    const webhook = await harness.createWebhook({ path: "/rebound", url: `http://${name}:${port}/rebound`, isActive: false });

    repointAtLoopback();
    expect((await lookup(name, { all: true })).map((entry) => entry.address)).toEqual(["127.0.0.1"]);
    const activated = await harness.api("PUT", `/api/v1/webhooks/${webhook.id}`, 1, { is_active: true });
    expect(activated.status).toBe(200);
    await harness.bus.publish(transferMatched, transferFor(webhook.id));

    await expect
      .poll(async () => (await deliveriesOf(harness, webhook.id))[0]?.attempt_log[0], { timeout: 10_000 })
      .toMatchObject({ attempt: 1, status_code: null });
    const [logged] = await deliveriesOf(harness, webhook.id);
    expect(logged!.attempt_log[0]!.error).toBe(DESTINATION_NOT_ALLOWED);
    expect(logged!.attempt_log.map((attempt) => attempt.error).join(" ")).not.toMatch(ANY_ADDRESS);
    expect(logged!.status).toBe("pending");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.filter((r) => r.path === "/rebound")).toEqual([]);
  });

  const platformTitle = "a name resolving to a platform address of the public range is refused at save and, stored anyway, when connecting";
  it.skipIf(!hostsWritable)(hostsWritable ? platformTitle : `${platformTitle} (${NOT_WRITABLE})`, async ({ harness }) => {
    const { receiver } = harness;
    expect((await lookup(platformName, { all: true })).map((entry) => entry.address)).toEqual([PLATFORM_IP]);
    const url = `http://${platformName}/machine?comp=goalstate`;
    const refused = await harness.api("POST", "/api/v1/webhooks", 1, { coin: "BTC", webhook_url: url, addresses: [SAMPLE_ADDRESSES.BTC] });
    expect(refused.status).toBe(422);
    expect(Object.keys((refused.body as unknown as { errors: object }).errors)).toEqual(["webhook_url"]);

    // As if saved before the rule: the URL written under the API, then activated.
    const webhook = await harness.createWebhook({ path: "/platform", url: `http://${PUBLIC_IP}/platform`, isActive: false });
    await harness.query(`update delivery.webhooks set webhook_url = $1 where id = $2`, [url, webhook.id]);
    expect((await harness.api("PUT", `/api/v1/webhooks/${webhook.id}`, 1, { is_active: true })).status).toBe(200);
    await harness.bus.publish(transferMatched, transferFor(webhook.id));

    await expect
      .poll(async () => (await deliveriesOf(harness, webhook.id))[0]?.attempt_log[0], { timeout: 10_000 })
      .toMatchObject({ attempt: 1, status_code: null, error: DESTINATION_NOT_ALLOWED });
    const [logged] = await deliveriesOf(harness, webhook.id);
    expect(logged!.attempt_log.map((attempt) => attempt.error).join(" ")).not.toMatch(ANY_ADDRESS);
    expect(receiver.received.filter((r) => r.path === "/platform")).toEqual([]);
  });
});
