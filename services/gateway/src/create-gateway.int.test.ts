import type { IncomingHttpHeaders, RequestListener } from "node:http";
import { describe, expect } from "vitest";
import { INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE } from "./http/authenticate-request.ts";
import { DEFAULT_KEY_CACHE_TTL_MS } from "./infra/api-key-store.ts";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import { createAccountWithKey, runAdminCli, startTestGateway, type TestGateway } from "./testing/index.ts";

/** An internal service stand-in that reports what reached it. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
/** What reached the stand-in. */
const echo: { seen: Seen[] } = { seen: [] };
/** Answers every call 200 with its URL, after reading it whole. */
const echoService: RequestListener = (req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    echo.seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    res.writeHead(200, { "content-type": "application/json", "x-served-by": "echo" });
    res.end(JSON.stringify({ ok: true, url: req.url }));
  });
};

gatewayTest.scoped({ standInSettings: { urlSettings: ["BTC_PROXY_URL", "XPUB_URL"], listener: echoService } });
const it = gatewayTest.extend<{ replicaGateway: TestGateway; callerAccount: { accountId: number; key: string } }>({
  /** A second gateway over the same database, in front of the same stand-in. */
  replicaGateway: [
    async ({ database, standInGateway, standInUpstream }, use) => {
      void standInGateway; // started first: it migrates the database
      const replica = await startTestGateway({ BTC_PROXY_URL: standInUpstream, XPUB_URL: standInUpstream }, database.connectionString, {
        checkAnswers: false,
      });
      try {
        await use(replica);
      } finally {
        await replica.close();
      }
    },
    { scope: "file" },
  ],
  /** An account and its API key. */
  callerAccount: [async ({ standInGateway }, use) => use(await createAccountWithKey(standInGateway.databaseUrl)), { scope: "file" }],
});

const get = (base: string, path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

describe("authentication (spec: Authentication 1-5)", () => {
  it.for<[string, Record<string, string>]>([
    ["no header", {}],
    ["an empty X-API-Key", { "X-API-Key": "" }],
    ["a Basic Authorization header", { Authorization: "Basic dXNlcjpwYXNz" }],
    ["an empty bearer", { Authorization: "Bearer " }],
  ])("answers 401 with the missing-key message for %s", async ([_case, headers], { standInGateway: gateway }) => {
    const response = await get(gateway.url, "/api/v1/btc/health", headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: MISSING_KEY_MESSAGE });
  });

  // Rows are functions of the account: its key exists only once its fixture has run.
  it.for<[string, (account: { key: string }) => Record<string, string>]>([
    ["a malformed key", () => ({ "X-API-Key": "short" })],
    ["an unknown well-formed key", () => ({ "X-API-Key": "Z".repeat(40) })],
    [
      "a key with one character changed",
      (account) => ({ "X-API-Key": `${account.key.slice(0, 39)}${account.key.endsWith("a") ? "b" : "a"}` }),
    ],
  ])("answers 401 with the invalid-key message for %s", async ([_case, headers], { standInGateway: gateway, callerAccount: account }) => {
    const response = await get(gateway.url, "/api/v1/btc/health", headers(account));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: INVALID_KEY_MESSAGE });
  });

  it("accepts the key in X-API-Key whatever the header's case, and as a bearer token", async ({
    standInGateway: gateway,
    callerAccount: account,
  }) => {
    const variants: Record<string, string>[] = [
      { "X-API-Key": account.key },
      { "x-api-key": account.key },
      { "X-API-KEY": account.key },
      { Authorization: `Bearer ${account.key}` },
    ];
    for (const headers of variants) {
      const response = await get(gateway.url, "/api/v1/btc/health", headers);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, url: "/api/v1/btc/health" });
    }
  });

  it("lets X-API-Key win when both are sent: a bad X-API-Key fails even with a valid bearer", async ({
    standInGateway: gateway,
    callerAccount: account,
  }) => {
    const response = await get(gateway.url, "/api/v1/btc/health", { "X-API-Key": "Y".repeat(40), Authorization: `Bearer ${account.key}` });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: INVALID_KEY_MESSAGE });
  });

  it("works for every prefix: the key belongs to the account, not to a coin", async ({
    standInGateway: gateway,
    callerAccount: account,
  }) => {
    expect((await get(gateway.url, "/api/v1/btc/xpub/1/addresses", { "X-API-Key": account.key })).status).toBe(200);
    // eth has no service configured on this gateway: past authentication, a 503 says so.
    const eth = await get(gateway.url, "/api/v1/eth/health", { "X-API-Key": account.key });
    expect(eth.status).toBe(503);
    expect(await eth.json()).toEqual({ message: "The eth-proxy service is not configured on this gateway." });
  });
});

describe("forwarding", () => {
  it("passes the account id in the internal header, strips the client's copy and its credentials, keeps path, query and body", async ({
    standInGateway: gateway,
    callerAccount: account,
  }) => {
    echo.seen.length = 0;
    const response = await fetch(`${gateway.url}/api/v1/btc/jsonrpc?x=1&y=%20z`, {
      method: "POST",
      headers: {
        "X-API-Key": account.key,
        "x-chaingate-account-id": "999999",
        "content-type": "application/json",
        "x-request-id": "req-42",
      },
      body: JSON.stringify({ method: "getblockcount", params: [] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-served-by")).toBe("echo");
    expect(response.headers.get("x-request-id")).toBe("req-42");
    const [seen] = echo.seen;
    expect(seen).toMatchObject({
      method: "POST",
      url: "/api/v1/btc/jsonrpc?x=1&y=%20z",
      body: JSON.stringify({ method: "getblockcount", params: [] }),
    });
    expect(seen!.headers["x-chaingate-account-id"]).toBe(String(account.accountId));
    expect(seen!.headers["x-request-id"]).toBe("req-42");
    expect(seen!.headers["x-api-key"]).toBeUndefined();
    expect(seen!.headers.authorization).toBeUndefined();
    expect(seen!.headers["content-length"]).toBe(String(seen!.body.length));
  });

  it("passes the client's trace on (with its tracestate), or starts one; adds the client to X-Forwarded-For", async ({
    standInGateway: gateway,
    callerAccount: account,
  }) => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const sent = async (headers: Record<string, string>) => {
      echo.seen.length = 0;
      expect((await fetch(`${gateway.url}/api/v1/btc/health`, { headers: { "X-API-Key": account.key, ...headers } })).status).toBe(200);
      return echo.seen[0]!.headers;
    };
    const traced = await sent({ traceparent, tracestate: "vendor=1", "x-forwarded-for": "203.0.113.7" });
    expect(traced.traceparent).toBe(traceparent);
    expect(traced.tracestate).toBe("vendor=1");
    expect(traced["x-forwarded-for"]).toBe("203.0.113.7, 127.0.0.1");
    // A malformed traceparent is replaced, and the tracestate that went with it dropped.
    const fresh = await sent({ traceparent: "00-bogus", tracestate: "vendor=1" });
    expect(fresh.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(fresh.tracestate).toBeUndefined();
    expect(fresh["x-forwarded-for"]).toBe("127.0.0.1");
  });

  it("forwards a chunked body whole, with its length", async ({ standInGateway: gateway, callerAccount: account }) => {
    echo.seen.length = 0;
    const parts = ['{"method":', '"getblockcount",', '"params":[]}'];
    const body = new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const response = await fetch(`${gateway.url}/api/v1/btc/jsonrpc`, {
      method: "POST",
      headers: { "X-API-Key": account.key, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(200);
    const [seen] = echo.seen;
    expect(seen!.body).toBe(parts.join(""));
    expect(seen!.headers["content-length"]).toBe(String(parts.join("").length));
    expect(seen!.headers["transfer-encoding"]).toBeUndefined();
  });
});

describe("key deactivation", () => {
  it("made by the CLI (no gateway involved), takes effect on every replica within the cache TTL", async ({
    standInGateway: gateway,
    replicaGateway: replica,
  }) => {
    const key = await createAccountWithKey(gateway.databaseUrl, "short-lived");
    // Both replicas have the key cached as active.
    expect((await get(gateway.url, "/api/v1/btc/health", { "X-API-Key": key.key })).status).toBe(200);
    expect((await get(replica.url, "/api/v1/btc/health", { "X-API-Key": key.key })).status).toBe(200);
    expect(await runAdminCli(gateway.databaseUrl, ["keys", "deactivate", "--prefix", key.key.slice(0, 8)])).toContain("deactivated");
    // Both replicas learn it from the NOTIFY (normally at once), at the latest when their cached row expires.
    for (const base of [gateway.url, replica.url]) {
      const refusal = async () => {
        const response = await get(base, "/api/v1/btc/health", { "X-API-Key": key.key });
        return { status: response.status, body: await response.json() };
      };
      await expect
        .poll(refusal, { timeout: DEFAULT_KEY_CACHE_TTL_MS + 1_000 })
        .toEqual({ status: 401, body: { message: INVALID_KEY_MESSAGE } });
    }
    // The operator's listing shows the key by prefix only, now inactive.
    const listing = await runAdminCli(gateway.databaseUrl, ["keys", "list", "--account", String(key.accountId)]);
    const [header, row] = listing
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(header).toEqual(["id", "account", "prefix", "name", "active", "created_at", "deactivated_at"]);
    expect(row?.slice(1, 5)).toEqual([String(key.accountId), key.key.slice(0, 8), "", "false"]);
    expect(row?.[6]).not.toBe("");
    expect(listing).not.toContain(key.key);
  });

  it("accepts a key created after a gateway already refused it (no stale negative cache)", async ({ standInGateway: gateway }) => {
    const created = await createAccountWithKey(gateway.databaseUrl, "fresh");
    expect((await get(gateway.url, "/api/v1/btc/health", { Authorization: `Bearer ${created.key}` })).status).toBe(200);
  });
});

describe("usage statistics", () => {
  it("counts requests per key, day and endpoint group for X-API-Key only, not for Bearer", async ({ standInGateway: gateway }) => {
    const user = await createAccountWithKey(gateway.databaseUrl, "usage");
    for (let i = 0; i < 3; i++) await get(gateway.url, "/api/v1/btc/health", { "X-API-Key": user.key });
    await get(gateway.url, "/api/v1/btc/xpub/1/addresses", { "X-API-Key": user.key });
    for (let i = 0; i < 5; i++) await get(gateway.url, "/api/v1/btc/health", { Authorization: `Bearer ${user.key}` });
    await get(gateway.url, "/api/v1/btc/health", { "X-API-Key": "Q".repeat(40) });
    await gateway.flushUsage();
    const report = await runAdminCli(gateway.databaseUrl, ["usage", "--account", String(user.accountId)]);
    const today = new Date().toISOString().slice(0, 10);
    const rows = report
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split("\t"));
    expect(rows.map(([day, , prefix, group, count]) => [day, prefix, group, count])).toEqual([
      [today, user.key.slice(0, 8), "btc", "3"],
      [today, user.key.slice(0, 8), "btc-xpub", "1"],
    ]);
  });
});

describe("the gateway's own routes", () => {
  it("answers unknown paths with JSON 404 {message} without asking for a key", async ({ standInGateway: gateway }) => {
    const response = await get(gateway.url, "/api/v1/nothing-here", { accept: "text/html" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "The route api/v1/nothing-here could not be found." });
  });

  it("answers a wrong method on its own routes with 405 naming the allowed ones", async ({ standInGateway: gateway }) => {
    const response = await fetch(`${gateway.url}/api/v1/openapi.json`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(((await response.json()) as { message: string }).message).toMatch(/Supported methods: GET, HEAD\.$/);
  });

  it("serves the OpenAPI document and the reference page publicly", async ({ standInGateway: gateway }) => {
    const document = await get(gateway.url, "/api/v1/openapi.json");
    expect(document.status).toBe(200);
    const body = (await document.json()) as { openapi: string; components: { securitySchemes: Record<string, unknown> } };
    expect(body.openapi).toBe("3.1.0");
    expect(body.components.securitySchemes.ApiKeyAuth).toEqual({ type: "apiKey", in: "header", name: "X-API-Key" });
    const page = await get(gateway.url, "/docs");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("/api/v1/openapi.json");
    expect((await get(gateway.url, "/docs/assets/swagger-ui-bundle.js")).status).toBe(200);
  });

  it("reports liveness and readiness", async ({ standInGateway: gateway }) => {
    expect(await (await get(gateway.url, "/healthz")).json()).toEqual({ status: "ok" });
    expect(await (await get(gateway.url, "/readyz")).json()).toEqual({ status: "ready" });
  });
});
