import type http from "node:http";
import net from "node:net";
import { describe, expect } from "vitest";
import { gatewayTest } from "./testing/gateway-fixtures.ts";
import type { TestGateway } from "./testing/index.ts";

const MIB = 1024 * 1024;
/** delivery's body limit, as the gateway's route table knows it. */
const WEBHOOK_BODY_LIMIT = 3 * MIB;
const MAX_BUFFERED_BODY_BYTES = 5 * MIB;

/**
 * Stands in for the delivery service: reads each body and answers 201 with its size, except under
 * /api/v1/webhooks/hold, which it answers only when the test lets it (so those bodies stay in flight).
 */
const received: string[] = [];
const held: http.ServerResponse[] = [];
const delivery: http.RequestListener = (req, res) => {
  let size = 0;
  req.on("data", (chunk: Buffer) => (size += chunk.length));
  req.on("end", () => {
    received.push(`${req.method} ${req.url} ${size}`);
    if (req.url === "/api/v1/webhooks/hold") return held.push(res);
    res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ size }));
  });
};
gatewayTest.scoped({
  standInSettings: { urlSettings: ["DELIVERY_URL"], listener: delivery },
  gatewaySettings: {
    MAX_BUFFERED_BODY_BYTES: String(MAX_BUFFERED_BODY_BYTES),
    // One account here: the whole budget is its share (body-budget-fairness.int.test.ts tests the shares).
    MAX_BUFFERED_BODY_PERCENT_PER_ACCOUNT: "100",
  },
});
const it = gatewayTest;

/** POSTs a body with the account's key, as `post(path, body, init)`. */
const poster =
  (gateway: TestGateway, key: string) =>
  (path: string, body: NonNullable<RequestInit["body"]>, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body, ...init });

/** Sends only the request head over a raw connection and reads what comes back until the gateway closes it. */
function sendHeadOnly(gateway: TestGateway, head: string): Promise<string> {
  const { port } = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(head));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    socket.on("end", () => resolve(answer)).on("error", reject);
    socket.setTimeout(3_000, () => reject(new Error(`no close within 3 s; got ${JSON.stringify(answer)}`)));
  });
}

describe("a body larger than its route accepts", () => {
  it("is refused with 413 on its declared Content-Length alone, before any of it is sent, and the connection closed", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const before = received.length;
    const answer = await sendHeadOnly(
      gateway,
      `POST /api/v1/webhooks HTTP/1.1\r\nhost: gateway\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${WEBHOOK_BODY_LIMIT + 1}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(answer).toContain(JSON.stringify({ message: `The request body is larger than ${WEBHOOK_BODY_LIMIT} bytes.` }));
    expect(received.length).toBe(before);
  });

  it("is answered 413 to a client that sends it whole, and the next request succeeds", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const post = poster(gateway, key);
    const before = received.length;
    const response = await post("/api/v1/webhooks", "x".repeat(WEBHOOK_BODY_LIMIT + 1));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: `The request body is larger than ${WEBHOOK_BODY_LIMIT} bytes.` });
    const next = await post("/api/v1/webhooks", "{}", { signal: AbortSignal.timeout(3_000) });
    expect(next.status).toBe(201);
    expect(received.slice(before)).toEqual(["POST /api/v1/webhooks 2"]);
  });

  it("is answered 413 when sent chunked, once it passes the limit", async ({ standInGateway: gateway, standInKey: key }) => {
    const post = poster(gateway, key);
    const before = received.length;
    const chunk = new Uint8Array(256 * 1024).fill(120);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 2 * WEBHOOK_BODY_LIMIT) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await post("/api/v1/webhooks", body, { duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(received.length).toBe(before);
    const next = await post("/api/v1/webhooks", "{}", { signal: AbortSignal.timeout(3_000) });
    expect(next.status).toBe(201);
  });

  it("within the limit is forwarded whole", async ({ standInGateway: gateway, standInKey: key }) => {
    const post = poster(gateway, key);
    const response = await post("/api/v1/webhooks", "x".repeat(WEBHOOK_BODY_LIMIT));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ size: WEBHOOK_BODY_LIMIT });
  });
});

describe("request bodies in flight past MAX_BUFFERED_BODY_BYTES", () => {
  it("answer 503 with Retry-After before being read, while smaller ones pass; the bytes come back when requests end", async ({
    standInGateway: gateway,
    standInKey: key,
  }) => {
    const post = poster(gateway, key);
    const large = "x".repeat(2 * MIB);
    const heldRequests = [post("/api/v1/webhooks/hold", large), post("/api/v1/webhooks/hold", large)];
    await expect.poll(() => held.length).toBe(2);

    const refused = await post("/api/v1/webhooks", large);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ message: "The gateway is holding too many request bodies at once; try again later." });
    const small = await post("/api/v1/webhooks", "x".repeat(512 * 1024));
    expect(small.status).toBe(201);

    // One held request answered, one abandoned by its client: both release their bytes.
    held.shift()!.writeHead(201).end("{}");
    expect((await heldRequests[0]!).status).toBe(201);
    const leaving = new AbortController();
    const abandoned = post("/api/v1/webhooks/hold", large, { signal: leaving.signal }).catch((error: unknown) => error);
    await expect.poll(() => held.length).toBe(2);
    leaving.abort();
    await abandoned;
    await expect.poll(async () => (await post("/api/v1/webhooks", large)).status).toBe(201);
    expect((await post("/api/v1/webhooks", large)).status).toBe(201);
    held.splice(0).forEach((res) => res.writeHead(201).end("{}"));
    expect((await heldRequests[1]!).status).toBe(201);
  });
});
