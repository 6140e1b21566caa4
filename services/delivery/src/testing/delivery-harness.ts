/**
 * What the delivery's integration tests share: a database of their own, a local receiver, the
 * service in this process on a NATS namespace of their own, a bus to publish on, and helpers to
 * create webhooks on the service's API and to build `transfer.matched` events for them. The
 * `harness` fixture (delivery-fixtures.ts) builds it from the file's fixtures; `startDeliveryHarness`
 * starts every part itself (`WEBHOOK_ALLOW_CIDRS` lets loopback through unless `env` says otherwise).
 */
import type { BuiltInCoin } from "@chaingate/chain-registry";
import { randomBytes } from "node:crypto";
import { connectBus, type Bus } from "@chaingate/bus";
import { transferMatched, type BlockTransferPayload } from "@chaingate/contracts";
import { createTestDatabase, silentLogger, testNamespace, type TestDatabase } from "@chaingate/testing";
import type { DeliveryService } from "../create-delivery-service.ts";
import { callAsAccount } from "./call-as-account.ts";
import { startLocalReceiver, type LocalReceiver } from "./local-receiver.ts";
import { startTestDelivery } from "./start-test-delivery.ts";

export type TransferMatchedEvent = BlockTransferPayload;

export interface DeliveryHarness {
  database: TestDatabase;
  receiver: LocalReceiver;
  delivery: DeliveryService;
  bus: Bus;
  /** Calls the delivery's API directly as `accountId` (the headers the gateway would set). */
  api(
    method: string,
    path: string,
    accountId?: number,
    body?: unknown,
  ): Promise<{ status: number; body: { data: Record<string, unknown>; message?: string } }>;
  /** Stops the service and starts it again on the same database and namespace (`delivery` is the new one). */
  restartDelivery(): Promise<void>;
  /** Runs one SQL statement on the test database. */
  query<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /** A webhook of `accountId` (1 by default) whose URL is the receiver's `path` (or `url` when given). */
  createWebhook(options: {
    path: string;
    coin?: BuiltInCoin;
    url?: string;
    isActive?: boolean;
    accountId?: number;
  }): Promise<{ id: number; secret: string }>;
}

/** The parts a harness is made of; `delivery` is the service running now. */
export interface DeliveryHarnessParts {
  database: TestDatabase;
  receiver: LocalReceiver;
  bus: Bus;
  delivery(): DeliveryService;
  restartDelivery(): Promise<void>;
}

/** Watched address of each coin in `transferFor`'s events. */
export const SAMPLE_ADDRESSES: Record<BuiltInCoin, string> = {
  BTC: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
  ETH: "0x" + "2".repeat(40),
  TRX: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
};

let sequence = 0;

/** A new `transfer.matched` event (own event id, transaction and block) for the webhook. */
export function transferFor(
  webhookId: number,
  coin: BuiltInCoin = "BTC",
  overrides: Partial<TransferMatchedEvent> = {},
): TransferMatchedEvent {
  sequence++;
  return {
    event_id: `evt_${randomBytes(6).toString("hex")}_${sequence}`,
    type: "transfer",
    webhook_id: webhookId,
    coin,
    currency: coin,
    from: null,
    to: SAMPLE_ADDRESSES[coin],
    watched_address: SAMPLE_ADDRESSES[coin],
    amount: "0.00012345",
    raw_amount: "12345",
    decimals: 8,
    token_contract: null,
    txid: randomBytes(32).toString("hex"),
    position: sequence,
    block: { height: sequence, hash: randomBytes(32).toString("hex"), time: "2026-11-22T10:00:00.000Z" },
    execution_status: "SUCCESS",
    confirmations: 1,
    ...overrides,
  };
}

/** The harness over running parts: its API calls go to whichever service runs now. */
export function createDeliveryHarness(parts: DeliveryHarnessParts): DeliveryHarness {
  const { database, receiver, bus } = parts;
  const api: DeliveryHarness["api"] = (method, path, accountId = 1, body) =>
    callAsAccount(parts.delivery().url, method, path, accountId, body);
  return {
    database,
    receiver,
    get delivery() {
      return parts.delivery();
    },
    bus,
    api,
    restartDelivery: () => parts.restartDelivery(),
    query: <Row extends Record<string, unknown>>(text: string, values?: unknown[]) => database.query<Row>(text, values),
    async createWebhook({ path, coin = "BTC", url, isActive, accountId }) {
      const created = await api("POST", "/api/v1/webhooks", accountId, {
        coin,
        webhook_url: url ?? `${receiver.url}${path}`,
        addresses: [SAMPLE_ADDRESSES[coin]],
        ...(isActive === undefined ? {} : { is_active: isActive }),
      });
      if (created.status !== 201) throw new Error(`webhook not created: ${created.status} ${JSON.stringify(created.body)}`);
      return { id: created.body.data.id as number, secret: created.body.data.secret as string };
    },
  };
}

/** Starts every part of a harness itself; `close` stops them all and drops the database. */
export async function startDeliveryHarness(
  env: Record<string, string | undefined> = {},
): Promise<DeliveryHarness & { close(): Promise<void> }> {
  const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  const namespace = testNamespace();
  const database = await createTestDatabase();
  const receiver = await startLocalReceiver();
  const deliveryEnv = { NATS_URL: natsUrl, NATS_NAMESPACE: namespace, WEBHOOK_ALLOW_CIDRS: "127.0.0.1/32", ...env };
  let delivery = await startTestDelivery(database.connectionString, deliveryEnv);
  const bus = await connectBus({ url: natsUrl, name: "test", logger: silentLogger, namespace });
  await bus.ensureStreams([transferMatched]);
  const harness = createDeliveryHarness({
    database,
    receiver,
    bus,
    delivery: () => delivery,
    async restartDelivery() {
      await delivery.close();
      delivery = await startTestDelivery(database.connectionString, deliveryEnv);
    },
  });
  return Object.assign(harness, {
    async close() {
      await bus.close();
      // The receiver first: attempts it never answers end now instead of at their timeout.
      await receiver.close();
      await delivery.close();
      await database.drop();
    },
  });
}
