/**
 * One trace from the scanner's block to the subscriber's answer (issue 12), every service a real
 * process exporting to a local OTLP receiver: a regtest payment to a watched address is matched in
 * a "scanner block" span (the node call is its child), `transfer.matched` carries that context in
 * its NATS headers, the delivery's consumer span continues it, the context survives the Postgres
 * job table, the attempt span is the consumer span's child, the POST's client span is the attempt's
 * child, and the receiver gets a `traceparent` naming that client span.
 */
import { randomBytes } from "node:crypto";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { CollectedSpan } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { waitUntilWatched } from "./scanner-watch.ts";
import { createServiceStack } from "./service-stack.ts";
import { drillTest, PRODUCT_START_MS } from "./testing/drill-fixtures.ts";

/** SpanKind in OTLP JSON: 1 internal, 3 client, 5 consumer. */
const INTERNAL = 1;
const CLIENT = 3;
const CONSUMER = 5;
const ACCOUNT_ID_HEADER = "x-chaingate-account-id";

/** The delivery service and the scanner (following the file's litecoind) exporting to the file's collector, and a receiver. */
interface TracedDelivery {
  deliveryUrl: string;
  /** The receiver's URL. */
  receiverUrl: string;
  /** The headers of every request the receiver got. */
  received: IncomingHttpHeaders[];
}

const it = drillTest.extend<{ tracedDelivery: TracedDelivery }>({
  tracedDelivery: [
    async ({ database, matureLitecoind: node, otlpCollector: collector }, use) => {
      const stack = createServiceStack();
      const received: IncomingHttpHeaders[] = [];
      const receiver = http.createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          received.push(req.headers);
          res.writeHead(204).end();
        });
      });
      try {
        await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
        const shared = {
          DATABASE_URL: database.connectionString,
          NATS_NAMESPACE: `t${randomBytes(4).toString("hex")}`,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_BSP_SCHEDULE_DELAY: "100",
        };
        const deliveryUrl = await stack.start("delivery", "delivery", {
          ...shared,
          BITCOIN_NETWORK: "litecoin-regtest",
          WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32",
        });
        await stack.start("scanner", "scanner", {
          ...shared,
          BTC_RPC_URL: node.rpcUrl,
          BTC_RPC_USER: node.rpcUser,
          BTC_RPC_PASSWORD: node.rpcPassword,
          SCANNER_POLL_INTERVAL_MS: "200",
        });
        const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
        await use({ deliveryUrl, receiverUrl, received });
      } finally {
        await stack.stop();
        await new Promise((resolve) => receiver.close(resolve));
      }
    },
    { scope: "file" },
  ],
});

/** `span`'s parent in `spans`, or undefined. */
const parentOf = (spans: CollectedSpan[], span: CollectedSpan | undefined) =>
  spans.find((candidate) => span?.parentSpanId && candidate.spanId === span.parentSpanId);

describe("a deposit, traced", () => {
  it(
    "is one trace from the scanner's block span through NATS and the job table to the delivery's POST and the receiver",
    {
      timeout: 60_000 + PRODUCT_START_MS,
    },
    async ({ tracedDelivery: { deliveryUrl, receiverUrl, received }, matureLitecoind: node, otlpCollector: collector, database }) => {
      const address = await node.walletRpc<string>("getnewaddress");
      const created = await fetch(`${deliveryUrl}/api/v1/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", [ACCOUNT_ID_HEADER]: "1" },
        body: JSON.stringify({
          coin: "BTC",
          webhook_url: `${receiverUrl}/deposits`,
          addresses: [address],
        }),
      });
      expect(created.status).toBe(201);
      const webhookId = ((await created.json()) as { data: { id: number } }).data.id;
      await waitUntilWatched(database.connectionString, webhookId);
      await node.mine(1);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await node.fundAddress(address, "0.5");
      await node.mine(1);

      await expect.poll(() => received.length, { timeout: 30_000, interval: 200 }).toBe(1);
      const traceparent = String(received[0]!["traceparent"] ?? "");
      expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
      const [, traceId, postSpanId] = traceparent.split("-");

      const inTrace = () => collector.spans.filter((span) => span.traceId === traceId);
      /** Links from the POST up its parents, as far as the collector has them. */
      const chainLength = () => {
        const spans = inTrace();
        let length = 0;
        for (let span = spans.find((s) => s.spanId === postSpanId); span; span = parentOf(spans, span)) length++;
        return length;
      };
      // The spans reach the collector in batches, each process's on its own schedule, and the attempt
      // span ends after the POST inside it: wait for the whole chain (POST, attempt, consumer, block).
      await expect.poll(chainLength, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
      await expect.poll(() => inTrace().some((span) => span.service === "scanner" && span.kind === CLIENT), { timeout: 15_000 }).toBe(true);
      const spans = inTrace();

      // The receiver's traceparent names the delivery's HTTP client span…
      const post = spans.find((span) => span.spanId === postSpanId)!;
      expect(post).toMatchObject({ service: "delivery", kind: CLIENT });
      // …whose parent is the attempt span…
      const attempt = parentOf(spans, post);
      expect(attempt).toMatchObject({ service: "delivery", name: "webhook delivery attempt", kind: INTERNAL });
      // …whose parent, stored with the job in Postgres, is the consumer span of the transfer.matched message…
      const consumed = parentOf(spans, attempt);
      expect(consumed).toMatchObject({ service: "delivery", name: "transfer.matched process", kind: CONSUMER });
      // …whose parent, carried in the message's NATS headers, is the scanner's span of the block.
      const block = parentOf(spans, consumed);
      expect(block).toMatchObject({ service: "scanner", name: "scanner block" });
      // The block's fetch from the node happened inside it too.
      expect(spans.some((span) => span.service === "scanner" && span.kind === CLIENT && span.parentSpanId === block!.spanId)).toBe(true);
    },
  );
});
