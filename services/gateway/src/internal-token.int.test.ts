import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountWithKey, startTestGateway } from "./testing/index.ts";

const TOKEN = "internal-token-of-forty-characters-00000";
const seen: IncomingHttpHeaders[] = [];
const upstream = http.createServer((req, res) => {
  seen.push(req.headers);
  res.writeHead(200, { "content-type": "application/json" }).end("{}");
});
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let key: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  gateway = await startTestGateway(
    { BTC_PROXY_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, INTERNAL_TOKEN: TOKEN },
    undefined,
    { checkAnswers: false },
  );
  ({ key } = await createAccountWithKey(gateway.databaseUrl));
});
afterAll(async () => {
  await gateway?.close();
  await gateway?.dropDatabase();
  await new Promise((resolve) => upstream.close(resolve));
});

describe("the gateway's internal token", () => {
  it("is sent to internal services with every forwarded request, and a client's own copy never passes", async () => {
    await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "x-api-key": key, "x-chaingate-internal-token": "forged" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!["x-chaingate-internal-token"]).toBe(TOKEN);
  });
});
