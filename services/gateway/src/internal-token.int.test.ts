import type { IncomingHttpHeaders, RequestListener } from "node:http";
import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";

const TOKEN = "internal-token-of-forty-characters-00000";
const seen: IncomingHttpHeaders[] = [];
const upstream: RequestListener = (req, res) => {
  seen.push(req.headers);
  res.writeHead(200, { "content-type": "application/json" }).end("{}");
};

gatewayTest.scoped({ standInSettings: { urlSettings: ["BTC_PROXY_URL"], listener: upstream }, gatewaySettings: { INTERNAL_TOKEN: TOKEN } });
const it = gatewayTest;

describe("the gateway's internal token", () => {
  it("is sent to internal services with every forwarded request, and a client's own copy never passes", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": key, "x-chaingate-internal-token": "forged" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!["x-chaingate-internal-token"]).toBe(TOKEN);
  });
});
