import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { freePort, spawnService, waitForHttp, type TestDatabase } from "@chaingate/testing";
import { integrationTest as it } from "@chaingate/testing/fixtures";
import { describe, expect } from "vitest";
import { createAccountWithKey, startTestGateway } from "./testing/index.ts";

const SERVICE_DIR = fileURLToPath(new URL("..", import.meta.url));
const MB = 1024 * 1024;
// Large against the ~30-55 MB a process grows once for heap sizing and GC lag (measured under the
// full suite's parallel load); a gateway that held the body would grow by all of it.
const BODY_SIZE = 200 * MB;

/** A gateway process over `database` whose btc-proxy is `upstream` (started here on a free port). */
async function spawnGatewayInFrontOf(database: TestDatabase, upstream: http.Server, env: Record<string, string> = {}) {
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const port = await freePort();
  const gateway = spawnService(SERVICE_DIR, {
    PORT: String(port),
    DATABASE_URL: database.connectionString,
    BTC_PROXY_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    ...env,
  });
  return { port, gateway };
}

describe("gateway process", () => {
  it("refuses to start with a message naming the bad variable", async () => {
    const service = spawnService(SERVICE_DIR, { PORT: "eighty", DATABASE_URL: "not-a-url" });
    expect(await new Promise((resolve) => service.process.once("exit", resolve))).toBe(1);
    expect(service.output()).toContain("gateway: invalid configuration");
    expect(service.output()).toMatch(/PORT: /);
    expect(service.output()).toMatch(/DATABASE_URL: /);
  });

  // The 20 MB / 30 MB target is measured by bench/ (memory figures are GC-noisy under parallel tests);
  // this test proves the property behind it: a body far larger than any buffer passes in constant memory.
  it("streams a 200 MB upstream answer without holding it (peak memory grows by under half its size)", async ({ database }) => {
    const chunk = Buffer.alloc(64 * 1024, "x");
    const upstream = http.createServer((req, res) => {
      if (req.url !== "/api/v1/btc/big") return void res.end("{}");
      res.writeHead(200, { "content-type": "application/octet-stream" });
      let sent = 0;
      const write = () => {
        while (sent < BODY_SIZE) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", write);
        }
        res.end();
      };
      write();
    });
    const { port, gateway } = await spawnGatewayInFrontOf(database, upstream, { LOG_LEVEL: "warn" });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`);
      const { key } = await createAccountWithKey(database.connectionString);
      // Warm up: key cache, pools, JIT.
      await (await fetch(`http://127.0.0.1:${port}/api/v1/btc/small`, { headers: { "X-API-Key": key } })).text();
      gateway.resetPeakMemory();
      const before = gateway.memory().rss;
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/btc/big`, { headers: { "X-API-Key": key } });
      let received = 0;
      for await (const part of response.body!) received += (part as Uint8Array).length;
      expect(received).toBe(BODY_SIZE);
      expect(gateway.memory().peakRss - before).toBeLessThan(BODY_SIZE / 2);
    } finally {
      await gateway.stop();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it("writes one access-log line per proxied request, all of them out by the time it has stopped", async ({ database }) => {
    const upstream = http.createServer((_req, res) => res.end("{}"));
    const { port, gateway } = await spawnGatewayInFrontOf(database, upstream);
    let accountId: number;
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`);
      const account = await createAccountWithKey(database.connectionString);
      accountId = account.accountId;
      const key = account.key;
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
      const answers = [
        await fetch(`http://127.0.0.1:${port}/api/v1/btc/blocks/1?verbosity=2`, {
          headers: { "X-API-Key": key, "X-Request-Id": "client-chosen-1", traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
        }),
        await fetch(`http://127.0.0.1:${port}/api/v1/btc/health`, { method: "POST", headers: { "X-API-Key": "nobody".repeat(8) } }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([200, 401]);
    } finally {
      await gateway.stop();
      await new Promise((resolve) => upstream.close(resolve));
    }
    const lines = gateway
      .output()
      .split("\n")
      .filter((line) => line.includes('"message":"request"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: "info",
      service: "gateway",
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      request_id: "client-chosen-1",
      method: "GET",
      path: "/api/v1/btc/blocks/1",
      status: 200,
      upstream: "btc-proxy",
      account_id: accountId,
    });
    expect(lines[0]!.duration_ms).toBeGreaterThan(0);
    expect(lines[1]).toMatchObject({ method: "POST", path: "/api/v1/btc/health", status: 401, upstream: "btc-proxy" });
    expect(lines[1]).not.toHaveProperty("account_id");
  });
});

describe("an internal service that is down", () => {
  it("yields 503 {message} at once when nothing listens", async ({ database }) => {
    const closedPort = await freePort();
    const gateway = await startTestGateway({ BTC_PROXY_URL: `http://127.0.0.1:${closedPort}` }, database.connectionString, {
      checkAnswers: false,
    });
    try {
      const { key } = await createAccountWithKey(gateway.databaseUrl);
      const started = Date.now();
      const response = await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "X-API-Key": key } });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({ message: "The btc-proxy service is unavailable; try again later." });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await gateway.close();
    }
  });

  it("yields 503 {message} after the headers timeout when it accepts but never answers", async ({ database }) => {
    const sockets = new Set<Socket>();
    const silent = http.createServer(() => {});
    silent.on("connection", (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const gateway = await startTestGateway(
      {
        BTC_PROXY_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        UPSTREAM_HEADERS_TIMEOUT_MS: "500",
      },
      database.connectionString,
      { checkAnswers: false },
    );
    try {
      const { key } = await createAccountWithKey(gateway.databaseUrl);
      const response = await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "X-API-Key": key } });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { message: string }).message).toMatch(/unavailable/);
    } finally {
      await gateway.close();
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
