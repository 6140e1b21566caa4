/**
 * One trace from the client's HTTP request through the gateway and the btc-proxy to the node call
 * (issue 12), with every process exporting to a local OTLP receiver: the gateway creates no span on
 * its hot path but carries the client's traceparent; the btc-proxy's server span is the child of
 * the client's span, and its call to the node is a child of that.
 */
import { randomBytes } from "node:crypto";
import { createAccountWithKey } from "@chaingate/gateway/testing";
import { describe, expect } from "vitest";
import { createServiceStack } from "./service-stack.ts";
import { drillTest, PRODUCT_START_MS } from "./testing/drill-fixtures.ts";

/** SpanKind in OTLP JSON: 2 server, 3 client. */
const SERVER = 2;
const CLIENT = 3;

/** The btc-proxy (over the file's litecoind) and the gateway in front of it, exporting to the file's collector, and a key. */
const it = drillTest.extend<{ tracedGateway: { gatewayUrl: string; btcUrl: string; key: string } }>({
  tracedGateway: [
    async ({ database, litecoind: node, otlpCollector: collector }, use) => {
      const stack = createServiceStack();
      try {
        const telemetry = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: "100" };
        const btcUrl = await stack.start("btc-proxy", "btc-proxy", {
          ...telemetry,
          BTC_RPC_URL: node.rpcUrl,
          BTC_RPC_USER: node.rpcUser,
          BTC_RPC_PASSWORD: node.rpcPassword,
        });
        const gatewayUrl = await stack.start("gateway", "gateway", {
          ...telemetry,
          DATABASE_URL: database.connectionString,
          BTC_PROXY_URL: btcUrl,
          ACCESS_LOG: "false",
        });
        const { key } = await createAccountWithKey(database.connectionString, "traces");
        await use({ gatewayUrl, btcUrl, key });
      } finally {
        await stack.stop();
      }
    },
    { scope: "file" },
  ],
});
/** Either test may be the first one run (with -t): the services start inside it. */
const TIMEOUT_MS = 60_000 + PRODUCT_START_MS;

describe("a client's request, traced", () => {
  it(
    "is one trace from the client's span through the btc-proxy to its node call, with no span on the gateway's hot path",
    {
      timeout: TIMEOUT_MS,
    },
    async ({ tracedGateway: { gatewayUrl, key }, otlpCollector: collector }) => {
      const traceId = randomBytes(16).toString("hex");
      const clientSpanId = randomBytes(8).toString("hex");
      const response = await fetch(`${gatewayUrl}/api/v1/btc/block/best`, {
        headers: { "x-api-key": key, traceparent: `00-${traceId}-${clientSpanId}-01` },
      });
      expect(response.status).toBe(200);

      const inTrace = () => collector.spans.filter((span) => span.traceId === traceId);
      await expect.poll(() => inTrace().some((span) => span.kind === CLIENT), { timeout: 10_000 }).toBe(true);
      const spans = inTrace();
      const server = spans.find((span) => span.service === "btc-proxy" && span.kind === SERVER);
      expect(server).toBeDefined();
      expect(server!.parentSpanId).toBe(clientSpanId); // the gateway forwarded the client's context untouched
      const nodeCall = spans.find((span) => span.service === "btc-proxy" && span.kind === CLIENT);
      expect(nodeCall).toBeDefined();
      // The node call descends from the server span (through express's spans in between).
      const byId = new Map(spans.map((span) => [span.spanId, span]));
      let ancestor = nodeCall;
      while (ancestor && ancestor.spanId !== server!.spanId) ancestor = ancestor.parentSpanId ? byId.get(ancestor.parentSpanId) : undefined;
      expect(ancestor?.spanId).toBe(server!.spanId);
      expect(spans.filter((span) => span.service === "gateway")).toEqual([]);
    },
  );
});

describe("a client's request, measured", () => {
  it(
    "shows in the btc-proxy's /metrics: the request by route pattern, the node call by method and outcome, a node refusal as an error",
    {
      timeout: TIMEOUT_MS,
    },
    async ({ tracedGateway: { gatewayUrl, btcUrl, key } }) => {
      expect((await fetch(`${gatewayUrl}/api/v1/btc/block/best`, { headers: { "x-api-key": key } })).status).toBe(200);
      expect((await fetch(`${gatewayUrl}/api/v1/btc/transactions/${"ab".repeat(32)}`, { headers: { "x-api-key": key } })).status).toBe(500);
      const text = await (await fetch(`${btcUrl}/metrics`)).text();
      expect(text).toMatch(/btc_proxy_http_requests_total\{method="GET",route="\/api\/v1\/btc\/block\/best",status="200"\} [1-9]/);
      expect(text).toMatch(/btc_proxy_node_call_duration_seconds_count\{chain="btc",method="getblockchaininfo",outcome="ok"\} [1-9]/);
      expect(text).toMatch(/btc_proxy_node_call_errors_total\{chain="btc",method="getrawtransaction",reason="not_found"\} 1/);
    },
  );
});
