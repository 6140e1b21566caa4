/**
 * How a service's answer reaches the client through the gateway (infra/proxied-answer.ts): headers
 * as sent, a service that breaks off, a client that leaves or reads slowly.
 */
import http from "node:http";
import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import type { TestGateway } from "./testing/index.ts";

const MB = 1024 * 1024;
const chunk = Buffer.alloc(64 * 1024, "x");

/** What the stand-in service saw of its calls to /stalls. */
const stalled = { received: 0, closed: 0 };
/** Bytes of /large the stand-in has handed to its socket so far. */
let largeSent = 0;
const LARGE_BYTES = 32 * MB;

/** How the stand-in service answers. */
const answer: http.RequestListener = (req, res) => {
  switch (req.url) {
    case "/api/v1/btc/headers":
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.writeHead(404, {
        "content-type": "application/json",
        "x-served-by": "stand-in",
        // Hop-by-hop: about the service's connection to the gateway, never passed on.
        "proxy-authenticate": "Basic",
        trailer: "x-checksum",
        // Bytes outside ASCII pass unchanged.
        "content-disposition": Buffer.from('attachment; filename="bl\xf6ck.json"', "latin1").toString("latin1"),
      });
      return void res.end(JSON.stringify({ message: "no such block" }));
    case "/api/v1/btc/hints":
      res.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
      return void res.end(JSON.stringify({ after: "hints" }));
    case "/api/v1/btc/breaks": {
      // Announces 1 MB, sends 128 KB, then drops the connection.
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(MB) });
      res.write(chunk);
      res.write(chunk, () => setTimeout(() => res.socket?.destroy(), 50));
      return;
    }
    case "/api/v1/btc/stalls":
      stalled.received++;
      res.once("close", () => stalled.closed++);
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write(chunk);
      return;
    case "/api/v1/btc/large": {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(LARGE_BYTES) });
      const write = () => {
        while (largeSent < LARGE_BYTES) {
          largeSent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", write);
        }
        res.end();
      };
      return write();
    }
    default:
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ url: req.url }));
  }
};

const it = gatewayTest;
gatewayTest.scoped({ standInSettings: { urlSettings: ["BTC_PROXY_URL"], listener: answer } });

/** A GET through the gateway with node:http (fetch hides raw header bytes and 1xx answers). */
function get(gateway: TestGateway, key: string, path: string, headers: Record<string, string> = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http.get(`${gateway.url}${path}`, { headers: { "x-api-key": key, ...headers } }, resolve).on("error", reject);
  });
}

async function readAll(response: http.IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of response) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe("a service's answer", () => {
  it("reaches the client with its status, body and end-to-end headers (repeated ones too), the request id added, hop-by-hop ones left out", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const response = await get(gateway, key, "/api/v1/btc/headers", { "x-request-id": "req-7" });
    expect(response.statusCode).toBe(404);
    expect(JSON.parse((await readAll(response)).toString())).toEqual({ message: "no such block" });
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers["x-served-by"]).toBe("stand-in");
    expect(response.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    expect(response.headers["x-request-id"]).toBe("req-7");
    expect(response.headers["proxy-authenticate"]).toBeUndefined();
    expect(response.headers.trailer).toBeUndefined();
    const disposition = response.rawHeaders[response.rawHeaders.findIndex((name) => name.toLowerCase() === "content-disposition") + 1]!;
    expect(Buffer.from(disposition, "latin1")).toEqual(Buffer.from('attachment; filename="bl\xf6ck.json"', "latin1"));
  });

  it("gets a request id of the gateway's making when the client sent none", async ({ standInGateway: gateway, standInKey: key }) => {
    const response = await get(gateway, key, "/api/v1/btc/plain");
    await readAll(response);
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("passes on the final answer after an informational (1xx) one", async ({ standInGateway: gateway, standInKey: key }) => {
    const response = await get(gateway, key, "/api/v1/btc/hints");
    expect(response.statusCode).toBe(200);
    expect(JSON.parse((await readAll(response)).toString())).toEqual({ after: "hints" });
  });
});

describe("a service that breaks off in the middle of its answer", () => {
  it("leaves the client with a broken response at once, never a hang or a complete-looking one; the next request is answered", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const response = await get(gateway, key, "/api/v1/btc/breaks");
    expect(response.statusCode).toBe(200);
    const started = Date.now();
    await expect(readAll(response)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
    const next = await get(gateway, key, "/api/v1/btc/next");
    expect(JSON.parse((await readAll(next)).toString())).toEqual({ url: "/api/v1/btc/next" });
  });
});

describe("a client that leaves in the middle of an answer", () => {
  it("cancels the gateway's call to the service", async ({ standInGateway: gateway, standInKey: key }) => {
    const response = await get(gateway, key, "/api/v1/btc/stalls");
    await new Promise((resolve) => response.once("data", resolve));
    await expect.poll(() => stalled.received).toBe(1);
    expect(stalled.closed).toBe(0);
    response.destroy();
    await expect.poll(() => stalled.closed, { timeout: 2_000 }).toBe(1);
  });
});

describe("a client that reads slowly", () => {
  it("gets the whole answer, the service held back meanwhile (the gateway does not buffer what the client has not read)", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const response = await get(gateway, key, "/api/v1/btc/large");
    response.pause();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // What the sockets' buffers hold, a few megabytes; a gateway that read on would have taken all 32.
    expect(largeSent).toBeLessThan(LARGE_BYTES / 2);
    const body = await readAll(response);
    expect(body.length).toBe(LARGE_BYTES);
  });
});
