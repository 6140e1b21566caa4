/**
 * An xpub service started while NATS is down (its first connection never happened): it serves and
 * issues at once, readiness names NATS as degraded, and every address issued meanwhile is published
 * once NATS comes up.
 */
import { randomBytes } from "node:crypto";
import { connectBus } from "@chaingate/bus";
import { addressIssued, type EventPayload } from "@chaingate/contracts";
import { internalEdge, silentLogger, TEST_INTERNAL_TOKEN, type InternalEdge } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { expect } from "vitest";
import vectors from "./domain/fixtures/bip84-vectors.json" with { type: "json" };
import type { XpubService } from "./create-xpub-service.ts";
import { startTestXpub } from "./testing/index.ts";

const NAMESPACE = `s${randomBytes(4).toString("hex")}`;

/** `xpubWithoutNats`: the service started while the file's private NATS is stopped. */
const it = integrationTest.extend<{ xpubWithoutNats: { xpub: XpubService; edge: InternalEdge } }>({
  xpubWithoutNats: [
    async ({ database, privateNats }, use) => {
      await privateNats.stop();
      const xpub = await startTestXpub(database.connectionString, {
        NATS_URL: privateNats.url,
        NATS_NAMESPACE: NAMESPACE,
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      });
      try {
        await use({ xpub, edge: internalEdge(xpub) });
      } finally {
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
});

it("issues with NATS down since start-up and publishes every address once NATS comes up", async ({
  xpubWithoutNats: { xpub, edge },
  privateNats: nats,
  onTestFinished,
}) => {
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
  const observer = await connectBus({ url: nats.url, name: "observer", logger: silentLogger, namespace: NAMESPACE });
  onTestFinished(() => observer.close());
  await observer.ensureStreams([addressIssued]);
  await observer.consume(addressIssued, { durable: "observer", handle: async (payload) => void received.push(payload) });
  await expect.poll(() => received.length, { timeout: 30_000 }).toBe(4);
  expect(received.map(({ address, index, xpub_id }) => ({ address, index, xpub_id }))).toEqual(
    issued.map(({ address, index }) => ({ address, index, xpub_id: keyId })),
  );
  await expect.poll(async () => (await fetch(`${xpub.url}/readyz`)).json(), { timeout: 10_000 }).not.toHaveProperty("degraded");
});
