/**
 * The request-body budget shared fairly: one account's idle connections (bodies declared, never
 * sent) hold at most its share of MAX_BUFFERED_BODY_BYTES, so another account's JSON-RPC call
 * still passes; and a body not received within REQUEST_BODY_RECEIVE_TIMEOUT_MS is answered 408
 * and gives its reservation back, on the proxied paths and the gateway's own JSON routes alike.
 */
import type http from "node:http";
import net from "node:net";
import { afterEach, describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { createAccountWithKey, type TestGateway } from "./testing/index.ts";

const MIB = 1024 * 1024;
const MAX_BUFFERED_BODY_BYTES = 20 * MIB;
const PERCENT_PER_ACCOUNT = 25;
const ACCOUNT_SHARE_BYTES = (MAX_BUFFERED_BODY_BYTES * PERCENT_PER_ACCOUNT) / 100;
const RECEIVE_TIMEOUT_MS = 1_500;
const BLOCK_NUMBER_CALL = JSON.stringify({ jsonrpc: "2.0", method: "eth_blockNumber", params: [], id: 1 });

/** Stands in for the eth-proxy: answers every JSON-RPC call with a block number. */
const ethProxy: http.RequestListener = (req, res) => {
  req.resume().on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","result":"0x10","id":1}'));
};
const openSockets: net.Socket[] = [];

gatewayTest.scoped({
  standInSettings: { urlSettings: ["ETH_PROXY_URL"], listener: ethProxy },
  gatewaySettings: {
    MAX_BUFFERED_BODY_BYTES: String(MAX_BUFFERED_BODY_BYTES),
    MAX_BUFFERED_BODY_PERCENT_PER_ACCOUNT: String(PERCENT_PER_ACCOUNT),
    REQUEST_BODY_RECEIVE_TIMEOUT_MS: String(RECEIVE_TIMEOUT_MS),
  },
});
const it = gatewayTest.extend<{ accountKeys: { greedy: string; other: string } }>({
  /** The keys of two accounts: one that holds bodies idle, one that calls alongside. */
  accountKeys: [
    async ({ standInGateway }, use) => {
      const [greedy, other] = await Promise.all([
        createAccountWithKey(standInGateway.databaseUrl, "greedy").then((account) => account.key),
        createAccountWithKey(standInGateway.databaseUrl, "other").then((account) => account.key),
      ]);
      await use({ greedy, other });
    },
    { scope: "file" },
  ],
});
afterEach(() => openSockets.splice(0).forEach((socket) => socket.destroy()));

/** A raw connection that sends a request head (JSON-RPC by default) declaring `declaredBytes`, then `sent` of the body; collects the answer. */
function openSlowBody(gateway: TestGateway, key: string, declaredBytes: number, sent = "", path = "/api/v1/eth/jsonrpc") {
  const { port } = new URL(gateway.url);
  const socket = net.connect(Number(port), "127.0.0.1");
  openSockets.push(socket);
  const state = { answer: "", closed: false };
  socket.setEncoding("utf8").on("data", (chunk: string) => (state.answer += chunk));
  socket.on("close", () => (state.closed = true)).on("error", () => {});
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: gateway\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${declaredBytes}\r\n\r\n${sent}`,
  );
  return state;
}

const blockNumber = (gateway: TestGateway, key: string) =>
  fetch(`${gateway.url}/api/v1/eth/jsonrpc`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: BLOCK_NUMBER_CALL,
    signal: AbortSignal.timeout(5_000),
  });

describe("one account's idle request bodies", () => {
  it("hold at most its share of the budget: another account's call passes, the greedy one's extra bodies get 503", async ({
    standInGateway: gateway,
    accountKeys,
  }) => {
    const { greedy, other } = accountKeys;
    const connections = 30; // 30 MiB declared, past the whole 20 MiB budget
    const slow = Array.from({ length: connections }, () => openSlowBody(gateway, greedy, 1 * MIB));
    // Whatever the split, at least 10 are refused at once (more than the budget); by then the rest hold their bytes.
    await expect.poll(() => slow.filter((state) => state.answer).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(10);

    const response = await blockNumber(gateway, other);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", result: "0x10", id: 1 });

    const admitted = ACCOUNT_SHARE_BYTES / MIB;
    await expect.poll(() => slow.filter((state) => state.answer).length).toBe(connections - admitted);
    for (const refused of slow.filter((state) => state.answer)) {
      expect(refused.answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(refused.answer.toLowerCase()).toContain("retry-after: 1");
      expect(refused.answer).toContain(
        JSON.stringify({
          message: `This account is holding too many request bodies at once (its share of the gateway's buffer is ${ACCOUNT_SHARE_BYTES} bytes); try again later.`,
        }),
      );
    }
  });
});

describe("a request body not received within REQUEST_BODY_RECEIVE_TIMEOUT_MS", () => {
  it("is answered 408 {message} with the connection closed, and its reservation is free again at once", async ({
    standInGateway: gateway,
    accountKeys,
  }) => {
    const { greedy } = accountKeys;
    const large = 4 * MIB; // two of these pass the account's 5 MiB share
    const started = Date.now();
    const stalled = openSlowBody(gateway, greedy, large, "x".repeat(1024));
    await expect.poll(() => stalled.closed, { timeout: RECEIVE_TIMEOUT_MS + 3_000 }).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(RECEIVE_TIMEOUT_MS - 100);
    expect(stalled.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(stalled.answer.toLowerCase()).toContain("connection: close");
    expect(stalled.answer).toContain(JSON.stringify({ message: `The request body was not received within ${RECEIVE_TIMEOUT_MS} ms.` }));

    const whole = await fetch(`${gateway.url}/api/v1/eth/jsonrpc`, {
      method: "POST",
      headers: { "x-api-key": greedy, "content-type": "application/json" },
      body: " ".repeat(large - BLOCK_NUMBER_CALL.length) + BLOCK_NUMBER_CALL,
      signal: AbortSignal.timeout(5_000),
    });
    expect(whole.status).toBe(200);
  });

  it("holds for the gateway's own JSON routes too (creating a key): 408 {message}, the connection closed, nothing created", async ({
    standInGateway: gateway,
    accountKeys,
  }) => {
    const { other } = accountKeys;
    const started = Date.now();
    const stalled = openSlowBody(gateway, other, 1024, '{"name":', "/api/v1/keys");
    await expect.poll(() => stalled.closed, { timeout: RECEIVE_TIMEOUT_MS + 3_000 }).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(RECEIVE_TIMEOUT_MS - 100);
    expect(stalled.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(stalled.answer.toLowerCase()).toContain("connection: close");
    expect(stalled.answer).toContain(JSON.stringify({ message: `The request body was not received within ${RECEIVE_TIMEOUT_MS} ms.` }));
    const keys = await fetch(`${gateway.url}/api/v1/keys`, { headers: { "x-api-key": other } });
    expect(((await keys.json()) as { meta: { total: number } }).meta.total).toBe(1);
  });
});
