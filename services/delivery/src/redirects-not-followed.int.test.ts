/**
 * SSRF defence when delivering (issue 7), against a real delivery and a local receiver: a redirect
 * is never followed, whatever its code, even to a private address where something listens (the
 * receiver itself on 127.0.0.1): the 3xx is recorded as a failed attempt. The connect-time checks
 * (DNS rebinding, platform addresses): ssrf-at-connect.int.test.ts.
 */
import { transferMatched } from "@chaingate/contracts";
import { describe, expect } from "vitest";
import { transferFor, type DeliveryHarness } from "./testing/index.ts";
import { deliveryTest } from "./testing/delivery-fixtures.ts";

interface LoggedDelivery {
  status: string;
  attempt_log: Array<{ attempt: number; status_code: number | null; error: string | null }>;
}

async function deliveriesOf(harness: DeliveryHarness, webhookId: number): Promise<LoggedDelivery[]> {
  return (await harness.api("GET", `/api/v1/webhooks/${webhookId}/deliveries`)).body.data as unknown as LoggedDelivery[];
}

const it = deliveryTest;
deliveryTest.scoped({ deliverySettings: { WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32" } });

describe("redirects", () => {
  it.for([301, 302, 303, 307, 308])(
    "a %i to a private address is not followed and is recorded as a failed attempt",
    async (code, { harness }) => {
      const { receiver } = harness;
      // The target is private (loopback) and something answers there: a followed redirect would show.
      const target = `/redirect-target-${code}`;
      receiver.on(`/redirect-${code}`, (_, res) => void res.writeHead(code, { location: `${receiver.url}${target}` }).end());
      const webhook = await harness.createWebhook({ path: `/redirect-${code}` });
      await harness.bus.publish(transferMatched, transferFor(webhook.id));
      await expect
        .poll(async () => (await deliveriesOf(harness, webhook.id))[0]?.attempt_log[0], { timeout: 10_000 })
        .toMatchObject({ attempt: 1, status_code: code, error: `HTTP ${code}` });
      expect((await deliveriesOf(harness, webhook.id))[0]!.status).toBe("pending"); // a failure: retried on the schedule
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received.filter((r) => r.path === target)).toEqual([]);
    },
  );
});
