/**
 * `address.issued` from the outbox, on a NATS of the test's own: every issued address is published
 * exactly once with its payload, and issuing goes on while NATS is down — the addresses issued
 * meanwhile are published when it is back.
 */
import { randomBytes } from "node:crypto";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { connectBus } from "@chaingate/bus";
import { addressIssued, type EventPayload } from "@chaingate/contracts";
import { internalEdge, TEST_INTERNAL_TOKEN } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { describe, expect } from "vitest";
import vectors from "./domain/fixtures/bip84-vectors.json" with { type: "json" };
import type { XpubService } from "./create-xpub-service.ts";
import { startTestXpub } from "./testing/index.ts";

const NAMESPACE = `x${randomBytes(4).toString("hex")}`;
/** The account the gateway would have authenticated. */
const account = { accountId: 1 };

interface Delivery {
  payload: EventPayload<typeof addressIssued>;
  messageId: string | undefined;
  subject: string;
  streamSequence: number;
}

/** The service on the file's private NATS, and an observer of the stream. */
interface Outbox {
  xpub: XpubService;
  post(path: string, body?: unknown): Promise<Response>;
  /** The stream's messages, once each, in stream order: what "published once" is about (a NATS restart may redeliver a message whose ack was lost). */
  stored(): Delivery[];
  /** How many messages the stream holds: a second publish of an address would be one more. */
  streamMessages(): Promise<number>;
}

const it = integrationTest.extend<{ outbox: Outbox }>({
  outbox: [
    async ({ database, privateNats }, use) => {
      const xpub = await startTestXpub(database.connectionString, {
        NATS_URL: privateNats.url,
        NATS_NAMESPACE: NAMESPACE,
        INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      });
      const edge = internalEdge(xpub);
      const observer = await connectBus({
        url: privateNats.url,
        name: "observer",
        logger: { info: () => {}, warn: () => {}, error: () => {} },
        namespace: NAMESPACE,
      });
      const deliveries: Delivery[] = [];
      try {
        await observer.ensureStreams([addressIssued]);
        await observer.consume(addressIssued, {
          durable: "observer",
          handle: async (payload, info) =>
            void deliveries.push({ payload, messageId: info.messageId, subject: info.subject, streamSequence: info.streamSequence }),
        });
        await use({
          xpub,
          post: (path, body) =>
            edge.request(account.accountId, path, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) }),
          stored: () =>
            [...new Map(deliveries.map((d) => [d.streamSequence, d])).values()].sort((a, b) => a.streamSequence - b.streamSequence),
          streamMessages: async () => (await observer.admin.streamInfo(addressIssued)).state.messages,
        });
      } finally {
        await observer.close();
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
});

describe("address.issued", () => {
  let keyId: number;
  const issued: Array<{ address: string; index: number }> = [];

  it("is published once for every issued address, with the account, the record, the coin and the index", async ({
    outbox: { post, stored },
  }) => {
    keyId = ((await (await post("/api/v1/btc/xpub", { xpub: vectors.accounts[0]!.zpub })).json()) as { id: number }).id;
    for (let i = 0; i < 5; i++)
      issued.push((await (await post(`/api/v1/btc/xpub/${keyId}/address`)).json()) as { address: string; index: number });
    await expect.poll(() => stored().length, { timeout: 10_000 }).toBe(5);
    expect(stored().map((r) => r.payload)).toEqual(
      issued.map(({ address, index }) => ({
        account_id: account.accountId,
        xpub_id: keyId,
        coin: "BTC",
        address,
        index,
        issued_at: expect.any(String),
      })),
    );
    expect(stored().map((r) => r.messageId)).toEqual(issued.map(({ index }) => `issued:BTC:${keyId}:${index}`));
  });

  it("keeps issuing while NATS is down (readiness names it as degraded), and publishes the addresses once NATS is back", async ({
    outbox: { xpub, post, stored, streamMessages },
    privateNats: nats,
  }) => {
    await nats.stop();
    const started = Date.now();
    for (let i = 0; i < 3; i++) {
      const response = await post(`/api/v1/btc/xpub/${keyId}/address`);
      expect(response.status).toBe(201);
      issued.push((await response.json()) as { address: string; index: number });
    }
    expect(Date.now() - started).toBeLessThan(3_000);
    const readiness = (await (await fetch(`${xpub.url}/readyz`)).json()) as { status: string; degraded?: Record<string, string> };
    expect(readiness.status).toBe("ready");
    expect(Object.keys(readiness.degraded ?? {})).toEqual(["nats"]);

    await nats.start();
    await expect.poll(() => stored().length, { timeout: 30_000 }).toBe(8);
    expect(stored().map((r) => r.payload.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(stored().map((r) => r.payload.address)).toEqual(issued.map((a) => a.address));
    expect(await streamMessages()).toBe(8);
  });

  it("carries Ethereum addresses in lower case on address.issued.eth, each once", async ({ outbox: { post, stored, streamMessages } }) => {
    const xpub = HDKey.fromMasterSeed(mnemonicToSeedSync("test test test test test test test test test test test junk")).derive(
      "m/44'/60'/0'",
    ).publicExtendedKey;
    const ethKeyId = ((await (await post("/api/v1/eth/xpub", { xpub })).json()) as { id: number }).id;
    const ethIssued: Array<{ address: string; address_lowercase: string; index: number }> = [];
    for (let i = 0; i < 3; i++)
      ethIssued.push((await (await post(`/api/v1/eth/xpub/${ethKeyId}/address`)).json()) as (typeof ethIssued)[number]);
    await expect.poll(() => stored().length, { timeout: 10_000 }).toBe(11);
    const eth = stored().slice(8);
    expect(eth.map((r) => r.payload)).toEqual(
      ethIssued.map(({ address_lowercase, index }) => ({
        account_id: account.accountId,
        xpub_id: ethKeyId,
        coin: "ETH",
        address: address_lowercase,
        index,
        issued_at: expect.any(String),
      })),
    );
    expect(eth.map((r) => r.messageId)).toEqual(ethIssued.map(({ index }) => `issued:ETH:${ethKeyId}:${index}`));
    expect(eth.map((r) => r.subject)).toEqual(ethIssued.map(() => `${NAMESPACE}.address.issued.eth`));
    // Nothing published twice: the stream holds one message per issued address of both chains.
    expect(new Set(stored().map((r) => r.messageId)).size).toBe(11);
    expect(await streamMessages()).toBe(11);
  });

  it("a republish after a crash between publishing and stamping is dropped by JetStream (the deterministic message id)", async ({
    outbox: { xpub, post, stored, streamMessages },
    database,
  }) => {
    // What a relay that died after publishing but before its commit leaves behind: published rows without a stamp.
    expect(await database.query("update xpub.issued_addresses set published_at = null returning 1")).toHaveLength(11);
    expect(await xpub.drainAddressEvents()).toBe(11);
    // One new address after the republish: once it has arrived, any duplicate would have arrived before it.
    const next = (await (await post(`/api/v1/btc/xpub/${keyId}/address`)).json()) as { address: string; index: number };
    await expect.poll(() => stored().at(-1)?.payload.address, { timeout: 10_000 }).toBe(next.address);
    expect(stored()).toHaveLength(12);
    expect(new Set(stored().map((r) => r.messageId)).size).toBe(12);
    expect(await streamMessages()).toBe(12);
  });
});
