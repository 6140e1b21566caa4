import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { createAccountWithKey, startTestGateway, type TestGateway } from "./testing/index.ts";

const upstream = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
/** The stand-in upstream, listening for the file; its URL. */
const it = gatewayTest.extend<{ upstreamUrl: string; proxyingGateway: TestGateway; key: string }>({
  /** The stand-in upstream, listening for the file; its URL. */
  upstreamUrl: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
      try {
        await use(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
      } finally {
        await new Promise((resolve) => upstream.close(resolve));
      }
    },
    { scope: "file" },
  ],
  /** The gateway in front of the stand-in, over the file's database. */
  proxyingGateway: [
    async ({ database, upstreamUrl }, use) => {
      const gateway = await startTestGateway({ BTC_PROXY_URL: upstreamUrl, METRICS_PORT: "0" }, database.connectionString, {
        checkAnswers: false,
      });
      try {
        await use(gateway);
      } finally {
        await gateway.close();
      }
    },
    { scope: "file" },
  ],
  /** An account's API key. */
  key: [async ({ proxyingGateway }, use) => use((await createAccountWithKey(proxyingGateway.databaseUrl)).key), { scope: "file" }],
});

describe("gateway metrics", () => {
  it("counts API requests by group and status and key lookups by how they were answered, on the metrics port only", async ({
    proxyingGateway: gateway,
    key,
  }) => {
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": key } })).status).toBe(200);
    expect((await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": "A".repeat(40) } })).status).toBe(401);
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404); // never on the public port

    const text = await (await fetch(`${gateway.metricsUrl}/metrics`)).text();
    expect(text).toContain('gateway_api_requests_total{group="btc",status="200"} 3');
    expect(text).toContain('gateway_api_requests_total{group="btc",status="401"} 1');
    expect(text).toMatch(/gateway_api_request_duration_seconds_count\{group="btc"\} 4/);
    const lookups = (result: string) => Number(new RegExp(`gateway_key_lookups_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    expect(lookups("database") + lookups("bypassed")).toBeGreaterThanOrEqual(2); // the valid key once, the unknown one once
    expect(lookups("cached")).toBeGreaterThanOrEqual(1);
    expect(lookups("cached") + lookups("database") + lookups("bypassed")).toBe(4);
    expect(text).toMatch(/^gateway_process_resident_memory_bytes \d/m);
  });
});
