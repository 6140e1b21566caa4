import { ChaingateError } from "@chaingate/errors";
import { createLogger } from "@chaingate/logger";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { listenOptions, serveHttpApp, startHttpServer, type RunningHttpServer } from "@chaingate/service-kit";
import { createHttpApp, parseRequest } from "./index.ts";

const silent = createLogger({ service: "test", level: "silent" });
const servers: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(readinessChecks: Record<string, () => Promise<unknown>> = {}) {
  const http = createHttpApp({
    service: "test",
    logger: silent,
    jsonBodyLimit: "1kb",
    readinessChecks,
    errorResponses: { teapot: (e) => ({ status: 418, body: { error: e.message } }) },
  });
  http.route("get", "/api/v1/things/:id", (req, res) => {
    res.json({ id: req.params.id });
  });
  http.route("post", "/api/v1/boxes/:id(\\d+)/open", (req, res) => {
    res.json({ opened: req.params.id });
  });
  http.route("post", "/api/v1/things", http.jsonBody, (req, res) => {
    const body = parseRequest(z.object({ name: z.string(), tags: z.array(z.string().max(3)) }), req.body);
    res.status(201).json(body);
  });
  http.route("get", "/teapot", () => {
    throw new ChaingateError("teapot", "short and stout");
  });
  http.route("get", "/boom", async () => {
    throw new Error("secret internals");
  });
  http.finish();
  const server = await startHttpServer(http.app, { host: "127.0.0.1", port: 0, logger: silent });
  servers.push(server);
  return { ...server, http };
}

describe("createHttpApp", () => {
  it("answers unknown routes with JSON 404 {message}, whatever Accept says", async () => {
    const { url } = await serve();
    const response = await fetch(`${url}/api/v1/nope`, { headers: { accept: "text/html" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ message: "The route api/v1/nope could not be found." });
  });

  it("answers a wrong method with 405 naming the supported methods", async () => {
    const { url } = await serve();
    const response = await fetch(`${url}/api/v1/things/7`, { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toEqual({
      message: "The DELETE method is not supported for route api/v1/things/7. Supported methods: GET, HEAD.",
    });
  });

  it("treats a parameter failing its constraint as a routing miss: 404 for every method, never 405", async () => {
    const { url } = await serve();
    expect(await (await fetch(`${url}/api/v1/boxes/12/open`, { method: "POST" })).json()).toEqual({ opened: "12" });
    expect((await fetch(`${url}/api/v1/boxes/12/open`)).status).toBe(405);
    expect((await fetch(`${url}/api/v1/boxes/abc/open`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${url}/api/v1/boxes/abc/open`)).status).toBe(404);
  });

  it("turns validation failures into 422 {message, errors} with the spec's summary", async () => {
    const { url } = await serve();
    const response = await fetch(`${url}/api/v1/things`, { method: "POST", body: JSON.stringify({ tags: ["long!", "ok"] }) });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      message: "The name field is required. (and 1 more error)",
      errors: { name: ["The name field is required."], "tags.0": [expect.stringContaining("3")] },
    });
  });

  it("answers malformed JSON with 400 and oversized bodies with 413", async () => {
    const { url } = await serve();
    const malformed = await fetch(`${url}/api/v1/things`, { method: "POST", body: "{nope" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: "The request body is not valid JSON." });
    const large = await fetch(`${url}/api/v1/things`, { method: "POST", body: JSON.stringify({ name: "x".repeat(2_000), tags: [] }) });
    expect(large.status).toBe(413);
  });

  it("renders a service's own error codes from its table, and hides unknown errors behind 500", async () => {
    const { url } = await serve();
    const teapot = await fetch(`${url}/teapot`);
    expect(teapot.status).toBe(418);
    expect(await teapot.json()).toEqual({ error: "short and stout" });
    const boom = await fetch(`${url}/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({ message: "Internal server error" });
  });
});

describe("createHttpApp request ids and hostile requests", () => {
  it("echoes or assigns a request id, and replaces one that is too long or not plain", async () => {
    const { url } = await serve();
    const echoed = await fetch(`${url}/api/v1/things/1`, { headers: { "x-request-id": "abc-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    const assigned = await fetch(`${url}/api/v1/things/1`);
    expect(assigned.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    for (const hostile of ["x".repeat(129), "abc def", 'a"b', "ünïcode", '{"level":60}']) {
      const replaced = await fetch(`${url}/api/v1/things/1`, {
        headers: { "x-request-id": encodeURI(hostile) === hostile ? hostile : encodeURI(hostile) },
      });
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("answers hostile requests with a 4xx {message}, never a 500", async () => {
    const { url } = await serve();
    const notGzip = await fetch(`${url}/api/v1/things`, {
      method: "POST",
      headers: { "content-encoding": "gzip" },
      body: "plainly not gzip",
    });
    expect(notGzip.status).toBe(400);
    expect(await notGzip.json()).toEqual({ message: "The request could not be read: its body does not match its headers." });
    const brotliUnknown = await fetch(`${url}/api/v1/things`, { method: "POST", headers: { "content-encoding": "compress" }, body: "{}" });
    expect(brotliUnknown.status).toBe(415);
    const badCharset = await fetch(`${url}/api/v1/things`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=klingon" },
      body: "{}",
    });
    expect(badCharset.status).toBe(415);
    for (const path of ["/api/v1/things/%ZZ", "/api/v1/nope/%E0%A4%A", "/api/v1/boxes/%ZZ/open"]) {
      const response = await fetch(`${url}${path}`);
      expect([400, 404]).toContain(response.status);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
    expect((await fetch(`${url}/api/v1/things/%ZZ`)).status).toBe(400);
  });
});

describe("createHttpApp while a dependency is down", () => {
  it("answers 503 with Retry-After when the database is unavailable", async () => {
    const http = createHttpApp({ service: "test", logger: silent });
    http.route("get", "/rows", () => {
      throw new ChaingateError("database_unavailable", "The database is unavailable; try again later.", { retryable: true });
    });
    http.finish();
    const server = await startHttpServer(http.app, { host: "127.0.0.1", port: 0, logger: silent });
    servers.push(server);
    const response = await fetch(`${server.url}/rows`);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toEqual({ message: "The database is unavailable; try again later." });
  });

  it("serves /healthz, and /readyz that fails with the failing check's name and while draining", async () => {
    let databaseUp = true;
    const { url, http } = await serve({
      database: async () => {
        if (!databaseUp) throw new Error("connection refused");
      },
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    databaseUp = false;
    const down = await fetch(`${url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: "not ready", failures: { database: "connection refused" } });
    databaseUp = true;
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: "ready" });
    http.markDraining();
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
  });
});

describe("startHttpServer close()", () => {
  it("lets an in-flight request finish and refuses new connections", async () => {
    const http = createHttpApp({ service: "test", logger: silent });
    http.route("get", "/slow", async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      res.json({ done: true });
    });
    http.finish();
    const server = await startHttpServer(http.app, { host: "127.0.0.1", port: 0, logger: silent });
    const inFlight = fetch(`${server.url}/slow`).then((r) => r.json());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = server.close();
    expect(await inFlight).toEqual({ done: true });
    await closed;
    await expect(fetch(`${server.url}/slow`)).rejects.toThrow();
  });
});

describe("/readyz degraded checks", () => {
  it("names a failing optional dependency under degraded and stays 200; a hung check fails by its deadline", async () => {
    let natsUp = false;
    const http = createHttpApp({
      service: "test",
      logger: silent,
      readinessChecks: { database: async () => {} },
      degradedChecks: {
        nats: async () => {
          if (!natsUp) throw new Error("NATS connection closed");
        },
      },
    });
    http.finish();
    const server = await startHttpServer(http.app, { host: "127.0.0.1", port: 0, logger: silent });
    servers.push(server);
    const degraded = await fetch(`${server.url}/readyz`);
    expect(degraded.status).toBe(200);
    expect(await degraded.json()).toEqual({ status: "ready", degraded: { nats: "NATS connection closed" } });
    natsUp = true;
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: "ready" });

    const hung = createHttpApp({ service: "test", logger: silent, readinessChecks: { database: () => new Promise(() => {}) } });
    hung.finish();
    const hungServer = await startHttpServer(hung.app, { host: "127.0.0.1", port: 0, logger: silent });
    servers.push(hungServer);
    const started = Date.now();
    const response = await fetch(`${hungServer.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "not ready", failures: { database: "no answer within 2000 ms" } });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe("requests node:http itself refuses", () => {
  it("answers oversized headers with 431 {message} and a deep JSON body with 400 {message}", async () => {
    const http = createHttpApp({ service: "test", logger: silent });
    http.route("post", "/things", http.jsonBody, (_req, res) => {
      res.json({ ok: true });
    });
    http.finish();
    const server = await startHttpServer(http.app, { host: "127.0.0.1", port: 0, logger: silent });
    servers.push(server);
    const tooLarge = await fetch(`${server.url}/things`, { method: "POST", headers: { "x-padding": "p".repeat(20_000) }, body: "{}" });
    expect(tooLarge.status).toBe(431);
    expect(await tooLarge.json()).toEqual({ message: "The request headers are too large." });
    const deep = await fetch(`${server.url}/things`, { method: "POST", body: "[".repeat(200_000) + "]".repeat(200_000) });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ message: "The request body nests JSON more than 64 levels deep." });
  });
});

describe("/metrics", () => {
  it("counts requests by route pattern (never the raw path) and status, and exposes process metrics, in Prometheus text", async () => {
    const { url } = await serve();
    await fetch(`${url}/api/v1/things/7`);
    await fetch(`${url}/api/v1/things/8`);
    await fetch(`${url}/api/v1/nope`);
    await fetch(`${url}/healthz`);
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain('test_http_requests_total{method="GET",route="/api/v1/things/{id}",status="200"} 2');
    expect(text).toContain('test_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toMatch(/test_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/things\/\{id\}",status="200"\} 2/);
    expect(text).not.toContain("/api/v1/things/7");
    expect(text).not.toContain("healthz");
    expect(text).toMatch(/^test_process_cpu_seconds_total \d/m);
  });
});

describe("internal token", () => {
  it("refuses requests without the gateway's token (constant-time check), but not probes and scrapes", async () => {
    const token = "t".repeat(40);
    const http = createHttpApp({ service: "test", logger: silent, internalToken: token });
    http.route("get", "/api/v1/things/:id", (req, res) => {
      res.json({ account: req.headers["x-chaingate-account-id"] ?? null });
    });
    http.finish();
    const server = await startHttpServer(http.app, { host: "127.0.0.1", port: 0, logger: silent });
    servers.push(server);
    for (const headers of [{}, { "x-chaingate-internal-token": "wrong" }, { "x-chaingate-internal-token": token + "x" }] as Record<
      string,
      string
    >[]) {
      const refused = await fetch(`${server.url}/api/v1/things/1`, { headers: { ...headers, "x-chaingate-account-id": "1" } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ message: "This service answers only requests forwarded by the gateway." });
    }
    const allowed = await fetch(`${server.url}/api/v1/things/1`, {
      headers: { "x-chaingate-internal-token": token, "x-chaingate-account-id": "1" },
    });
    expect(await allowed.json()).toEqual({ account: "1" });
    for (const open of ["/healthz", "/readyz", "/metrics"]) expect((await fetch(`${server.url}${open}`)).status).toBe(200);
  });
});

describe("serveHttpApp with METRICS_PORT", () => {
  it("also serves /metrics on a listener of its own, and closes it with the app", async () => {
    const http = createHttpApp({ service: "svc", logger: silent });
    http.finish();
    const served = await serveHttpApp(
      http,
      listenOptions({ HOST: "127.0.0.1", PORT: 0, DRAIN_TIMEOUT_MS: 1_000, METRICS_HOST: "127.0.0.1", METRICS_PORT: 0 }, silent),
      async () => {},
    );
    expect(served.metricsUrl).toBeDefined();
    expect(await (await fetch(`${served.metricsUrl}/metrics`)).text()).toMatch(/^svc_process_cpu_seconds_total \d/m);
    expect((await fetch(`${served.metricsUrl}/api`)).status).toBe(404);
    await served.close();
    await expect(fetch(`${served.metricsUrl}/metrics`)).rejects.toThrow();
  });
});
