/**
 * An xpub service started while NATS is down (its first connection never happened): it serves and
 * issues at once, readiness names NATS as degraded, and every address issued meanwhile is published
 * once NATS comes up.
 */
import { randomBytes } from "node:crypto";
import { connectBus, type Bus } from "@chaingate/bus";
import { addressIssued, type EventPayload } from "@chaingate/contracts";
import {
  createTestDatabase,
  internalEdge,
  silentLogger,
  startPrivateNats,
  TEST_INTERNAL_TOKEN,
  type InternalEdge,
  type PrivateNats,
  type TestDatabase,
} from "@chaingate/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import vectors from "./domain/fixtures/bip84-vectors.json" with { type: "json" };
import type { XpubService } from "./create-xpub-service.ts";
import { startTestXpub } from "./testing/index.ts";

const NAMESPACE = `s${randomBytes(4).toString("hex")}`;
let database: TestDatabase;
let nats: PrivateNats;
let xpub: XpubService;
let edge: InternalEdge;
let observer: Bus | undefined;

beforeAll(async () => {
  [database, nats] = await Promise.all([createTestDatabase(), startPrivateNats()]);
  await nats.stop();
  xpub = await startTestXpub(database.connectionString, {
    NATS_URL: nats.url,
    NATS_NAMESPACE: NAMESPACE,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
  });
  edge = internalEdge(xpub);
});
afterAll(async () => {
  await observer?.close();
  await xpub?.close();
  await Promise.all([nats?.destroy(), database?.drop()]);
});

it("issues with NATS down since start-up and publishes every address once NATS comes up", async () => {
  const account = { accountId: 1 };
  const post = async (path: string, body?: unknown) => {
    const response = await edge.request(account.accountId, path, {
      method: "POST",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Record<string, unknown>;
  };
  const keyId = (await post("/api/v1/btc/xpub", { xpub: vectors.accounts[0]!.zpub })).id as number;
  const issued = [];
  for (let i = 0; i < 4; i++) issued.push(await post(`/api/v1/btc/xpub/${keyId}/address`));
  const readiness = await fetch(`${xpub.url}/readyz`);
  expect(readiness.status).toBe(200);
  expect(Object.keys(((await readiness.json()) as { degraded?: object }).degraded ?? {})).toEqual(["nats"]);

  await nats.start();
  const received: Array<EventPayload<typeof addressIssued>> = [];
  observer = await connectBus({ url: nats.url, name: "observer", logger: silentLogger, namespace: NAMESPACE });
  await observer.ensureStreams([addressIssued]);
  await observer.consume(addressIssued, { durable: "observer", handle: async (payload) => void received.push(payload) });
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(4);
  expect(received.map(({ address, index, xpub_id }) => ({ address, index, xpub_id }))).toEqual(
    issued.map(({ address, index }) => ({ address, index, xpub_id: keyId })),
  );
  await expect.poll(async () => (await fetch(`${xpub.url}/readyz`)).json(), { timeout: 10_000 }).not.toHaveProperty("degraded");
});
