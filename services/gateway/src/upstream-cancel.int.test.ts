import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountWithKey, startTestGateway } from "./testing/index.ts";

/** An internal service that never answers, and reports when the gateway's call to it is closed. */
let callsClosed = 0;
let callsReceived = 0;
const slow = http.createServer((req, res) => {
  callsReceived++;
  res.once("close", () => callsClosed++);
  void req;
});
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let key: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  gateway = await startTestGateway({ BTC_PROXY_URL: `http://127.0.0.1:${(slow.address() as AddressInfo).port}` });
  ({ key } = await createAccountWithKey(gateway.databaseUrl));
});
afterAll(async () => {
  await gateway?.close();
  await gateway?.dropDatabase();
  slow.closeAllConnections();
  await new Promise((resolve) => slow.close(resolve));
});

describe("a client that leaves before the internal service answered", () => {
  it("cancels the gateway's call to the service (which cancels its node call in turn)", async () => {
    const leaving = new AbortController();
    const request = fetch(`${gateway.url}/api/v1/btc/block/1`, { headers: { "x-api-key": key }, signal: leaving.signal }).catch((error: unknown) => error);
    await expect.poll(() => callsReceived).toBe(1);
    expect(callsClosed).toBe(0);
    leaving.abort();
    await request;
    await expect.poll(() => callsClosed, { timeout: 2_000 }).toBe(1);
  });
});
