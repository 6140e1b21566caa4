/**
 * `key.moved` from the `key_moves` outbox, over a real Postgres and NATS: a move the operator makes
 * with `xpub-admin` (another process, which cannot wake the service) is published by the running
 * service on its own, once, with the record's coin, accounts and counter; a move written by a release
 * without the relay (published_at left null) is published too, and a restart publishes nothing twice.
 */
import { randomBytes } from "node:crypto";
import { connectBus } from "@chaingate/bus";
import { keyMoved, type EventPayload } from "@chaingate/contracts";
import { accountSequence, silentLogger } from "@chaingate/testing";
import { integrationTest } from "@chaingate/testing/fixtures";
import { ACCOUNT_ID_HEADER } from "@chaingate/http";
import { expect } from "vitest";
import type { XpubService } from "./create-xpub-service.ts";
import { runXpubAdmin, startTestXpub } from "./testing/index.ts";
import { freshAccountKey } from "./testing/same-node-other-text.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const NAMESPACE = `m${randomBytes(4).toString("hex")}`;
const env = { NATS_URL, NATS_NAMESPACE: NAMESPACE };
const newAccount = accountSequence();
const alice = newAccount();
const bob = newAccount();

interface Received {
  payload: EventPayload<typeof keyMoved>;
  messageId: string | undefined;
  subject: string;
}

/** The running service (restartable) and an observer of the key.moved stream. */
interface Relay {
  readonly xpub: XpubService;
  /** Closes the service and starts it again over the same database. */
  restart(): Promise<void>;
  post(path: string, accountId: number, body?: unknown): Promise<Record<string, unknown>>;
  received: Received[];
  streamMessages(): Promise<number>;
}

const it = integrationTest.extend<{ relay: Relay }>({
  relay: [
    async ({ database }, use) => {
      let xpub = await startTestXpub(database.connectionString, env);
      const observer = await connectBus({ url: NATS_URL, name: "observer", logger: silentLogger, namespace: NAMESPACE });
      const received: Received[] = [];
      try {
        await observer.ensureStreams([keyMoved]);
        const consumption = await observer.consume(keyMoved, {
          durable: "observer",
          handle: async (payload, info) => void received.push({ payload, messageId: info.messageId, subject: info.subject }),
        });
        await use({
          get xpub() {
            return xpub;
          },
          async restart() {
            await xpub.close();
            xpub = await startTestXpub(database.connectionString, env);
          },
          async post(path, accountId, body) {
            const response = await fetch(`${xpub.url}${path}`, {
              method: "POST",
              headers: { [ACCOUNT_ID_HEADER]: String(accountId), "content-type": "application/json" },
              body: body === undefined ? undefined : JSON.stringify(body),
            });
            expect(response.ok).toBe(true);
            return (await response.json()) as Record<string, unknown>;
          },
          received,
          streamMessages: async () => (await observer.admin.streamInfo(keyMoved)).state.messages,
        });
        await consumption.stop();
      } finally {
        await observer.close();
        await xpub.close();
      }
    },
    { scope: "file" },
  ],
});

it("publishes the CLI's move from the running service, on its own, with the record's coin, accounts and counter", async ({
  relay: { post, received },
  database,
}) => {
  const { id } = (await post("/api/v1/btc/xpub", alice.accountId, { xpub: freshAccountKey() })) as { id: number };
  for (let i = 0; i < 2; i++) await post(`/api/v1/btc/xpub/${id}/address`, alice.accountId);

  expect(
    (await runXpubAdmin(database.connectionString, "keys", "move", "--id", String(id), "--to-account", String(bob.accountId))).code,
  ).toBe(0);
  // No drain: the relay's idle poll finds the row the other process wrote.
  await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
  const [row] = await database.query<{ id: string; moved_at: Date }>("select id, moved_at from xpub.key_moves where key_id = $1", [id]);
  const [moveId, movedAt] = [row!.id, row!.moved_at];
  expect(received[0]).toEqual({
    payload: {
      move_id: Number(moveId),
      xpub_id: id,
      coin: "BTC",
      from_account_id: alice.accountId,
      to_account_id: bob.accountId,
      next_index: 2,
      moved_at: movedAt.toISOString(),
    },
    messageId: `moved:${moveId}`,
    subject: `${NAMESPACE}.key.moved.btc`,
  });
  expect(await database.query("select published_at is not null as published from xpub.key_moves where key_id = $1", [id])).toEqual([
    { published: true },
  ]);

  // Moved back: a second event, with a newer move id (what the registry orders moves by).
  await post(`/api/v1/btc/xpub/${id}/address`, bob.accountId);
  expect(
    (await runXpubAdmin(database.connectionString, "keys", "move", "--id", String(id), "--to-account", String(alice.accountId))).code,
  ).toBe(0);
  await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
  expect(received[1]!.payload).toMatchObject({
    xpub_id: id,
    from_account_id: bob.accountId,
    to_account_id: alice.accountId,
    next_index: 3,
  });
  expect(received[1]!.payload.move_id).toBeGreaterThan(received[0]!.payload.move_id);
});

it("publishes a move written without the relay (an older release, or before this one), and a restart publishes nothing twice", async ({
  relay,
  database,
}) => {
  const { post, received, streamMessages } = relay;
  const { id } = (await post("/api/v1/btc/xpub", alice.accountId, { xpub: freshAccountKey() })) as { id: number };
  // As a release without the outbox writes it (no published_at).
  await database.query("update xpub.extended_keys set account_id = $1 where id = $2", [bob.accountId, id]);
  await database.query("insert into xpub.key_moves (key_id, from_account_id, to_account_id, next_index) values ($1, $2, $3, 0)", [
    id,
    alice.accountId,
    bob.accountId,
  ]);
  await expect.poll(() => received.length, { timeout: 15_000 }).toBe(3);
  expect(received[2]!.payload).toMatchObject({ xpub_id: id, coin: "BTC", to_account_id: bob.accountId, next_index: 0 });

  const stored = await streamMessages();
  await database.query("update xpub.key_moves set published_at = null");
  await relay.restart();
  await relay.xpub.drainKeyMoves();
  // Republished after the restart (their stamps were lost), and dropped by the stream as duplicates.
  await expect
    .poll(async () => database.query("select count(*)::int as unpublished from xpub.key_moves where published_at is null"), {
      timeout: 15_000,
    })
    .toEqual([{ unpublished: 0 }]);
  expect(await streamMessages()).toBe(stored);
  expect(received).toHaveLength(3);
}, 30_000);
