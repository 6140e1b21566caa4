import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { createAccountWithKey, startTestGateway, type TestGateway } from "./testing/index.ts";

const TOKEN = "internal-token-of-forty-characters-00000";
const seen: IncomingHttpHeaders[] = [];
const upstream = http.createServer((req, res) => {
  seen.push(req.headers);
  res.writeHead(200, { "content-type": "application/json" }).end("{}");
});

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
      const gateway = await startTestGateway({ BTC_PROXY_URL: upstreamUrl, INTERNAL_TOKEN: TOKEN }, database.connectionString, {
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

describe("the gateway's internal token", () => {
  it("is sent to internal services with every forwarded request, and a client's own copy never passes", async ({
    proxyingGateway: gateway,
    key,
  }) => {
    await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": key, "x-chaingate-internal-token": "forged" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!["x-chaingate-internal-token"]).toBe(TOKEN);
  });
});
