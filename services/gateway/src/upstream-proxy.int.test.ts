import type http from "node:http";
import { createHttpApp } from "@chaingate/http";
import { fileURLToPath } from "node:url";
import { freePort, silentLogger, spawnService, waitForHttp } from "@chaingate/testing";
import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { startTestGateway, type TestGateway } from "./testing/index.ts";

/**
 * An internal service that never answers /slow (and reports when the gateway's call to it is
 * closed), and answers everything else at once without reading the body (as a 404 for an unknown
 * id does).
 */
let callsClosed = 0;
let callsReceived = 0;
const slow: http.RequestListener = (req, res) => {
  if (req.url === "/api/v1/btc/slow") {
    callsReceived++;
    res.once("close", () => callsClosed++);
    return;
  }
  void answerAtOnce(req, res);
};
/** Answers like every internal service (createHttpApp), without reading a body it does not need. */
const internalApp = createHttpApp({ service: "test", logger: silentLogger });
internalApp.route("post", "/api/v1/btc/unknown", (_req, res) => {
  res.status(404).json({ message: "unknown" });
});
internalApp.route("get", "/api/v1/btc/:name", (req, res) => {
  res.json({ url: req.url });
});
internalApp.finish();
const answerAtOnce = internalApp.app;
gatewayTest.scoped({ standInSettings: { urlSettings: ["BTC_PROXY_URL"], listener: slow } });
const it = gatewayTest.extend<{ xpubGateway: TestGateway }>({
  /** The same race against a real service process (its own event loop, as deployed): the xpub service, and a gateway in front of it. */
  xpubGateway: [
    async ({ database, standInGateway }, use) => {
      void standInGateway; // started first, as the service's stand-in gateway was
      const port = await freePort();
      const xpub = spawnService(fileURLToPath(new URL("../../xpub", import.meta.url)), {
        PORT: String(port),
        DATABASE_URL: database.connectionString,
        LOG_LEVEL: "warn",
      });
      try {
        await waitForHttp(`http://127.0.0.1:${port}/healthz`);
        const gateway = await startTestGateway({ XPUB_URL: `http://127.0.0.1:${port}` }, database.connectionString, {
          checkAnswers: false,
        });
        try {
          await use(gateway);
        } finally {
          await gateway.close();
        }
      } finally {
        await xpub.stop();
      }
    },
    { scope: "file" },
  ],
});

describe("a client that leaves before the internal service answered", () => {
  it("cancels the gateway's call to the service (which cancels its node call in turn)", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const leaving = new AbortController();
    const request = fetch(`${gateway.url}/api/v1/btc/slow`, { headers: { "x-api-key": key }, signal: leaving.signal }).catch(
      (error: unknown) => error,
    );
    await expect.poll(() => callsReceived).toBe(1);
    expect(callsClosed).toBe(0);
    leaving.abort();
    await request;
    await expect.poll(() => callsClosed, { timeout: 2_000 }).toBe(1);
  });
});

describe("a request body the internal service answers before reading", () => {
  it.for<[string, (gateways: { standInGateway: TestGateway; xpubGateway: TestGateway }) => string, string, number, (i: number) => string]>([
    // Each body as large as its route accepts (route-table.ts): btc-proxy 5 MiB, xpub 1 MiB.
    [
      "an in-process service",
      ({ standInGateway }) => standInGateway.url,
      "/api/v1/btc/unknown",
      5 * 1024 * 1024,
      (i: number) => `/api/v1/btc/next-${i}`,
    ],
    [
      "a service process (xpub)",
      ({ xpubGateway }) => xpubGateway.url,
      "/api/v1/btc/xpub/1/address",
      1024 * 1024,
      () => "/api/v1/btc/xpub/1/addresses",
    ],
  ])(
    "leaves no half-sent body on the connection to %s: the next requests are answered at once",
    async ([_name, base, bodyPath, bodyBytes, nextPath], { standInGateway, xpubGateway, standInKey: key }) => {
      const headers = { "x-api-key": key, "content-type": "application/json" };
      for (let round = 0; round < 3; round++) {
        const early = await fetch(`${base({ standInGateway, xpubGateway })}${bodyPath}`, {
          method: "POST",
          headers,
          body: "x".repeat(bodyBytes),
        });
        expect(early.status).toBe(404);
        for (let i = 0; i < 4; i++) {
          const next = await fetch(`${base({ standInGateway, xpubGateway })}${nextPath(i)}`, {
            headers,
            signal: AbortSignal.timeout(3_000),
          });
          expect([200, 404]).toContain(next.status);
        }
      }
    },
  );

  // The 413 is answered on the declared length, unread, with `Connection: close`: the unread body
  // can never be taken for the next request (body-limits.int.test.ts has the rest).
  it("answers a body over its route's limit (btc-proxy: 5 MiB) with 413 and closes the connection; the next requests are answered at once", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const response = await fetch(`${gateway.url}/api/v1/btc/unknown`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: "x".repeat(17 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ message: "The request body is larger than 5242880 bytes." });
    const next = await fetch(`${gateway.url}/api/v1/btc/next`, { headers: { "x-api-key": key }, signal: AbortSignal.timeout(3_000) });
    expect(next.status).toBe(200);
  });
});
