/**
 * A scanner under test with its own database and NATS namespace, and a recorder of what it
 * publishes (transfer.matched, block.processed) read back through durable consumers. It also
 * stands in for the registry, publishing the watch feed as the delivery's relay does.
 */
import { randomBytes } from "node:crypto";
import { connectBus, type Bus, type Consumption } from "@chaingate/bus";
import {
  blockProcessed,
  bucketBitsFor,
  bucketHash,
  bucketOf,
  defaultIncludeTokens,
  DEFAULT_CONFIRMATIONS,
  transferMatched,
  webhookAddresses,
  webhookChanged,
  type EventPayload,
} from "@chaingate/contracts";
import { silentLogger } from "@chaingate/testing";
import pg from "pg";
import { WEBHOOK_WATCHED_SQL } from "./webhook-watched-sql.ts";

export type TransferMatched = EventPayload<typeof transferMatched>;
export type BlockProcessed = EventPayload<typeof blockProcessed>;
export type WebhookChanged = EventPayload<typeof webhookChanged>;

/** A registry change as a test states it: the webhook's whole address list and any settings. */
export type FakeRegistryChange = Partial<Omit<WebhookChanged, "address_count" | "bucket_bits">> & Pick<WebhookChanged, "webhook_id" | "coin"> & { addresses: string[] };

export interface EventRecorder {
  bus: Bus;
  namespace: string;
  transfers: TransferMatched[];
  blocks: BlockProcessed[];
  /**
   * Publishes the webhook's buckets (every bucket of its level, empty ones too, so earlier
   * addresses go) and then its meta, as the registry's relay does.
   */
  publishWebhook(change: FakeRegistryChange): Promise<void>;
  waitFor(description: string, condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startEventRecorder(natsUrl = process.env.NATS_URL!): Promise<EventRecorder> {
  const namespace = `scan${randomBytes(4).toString("hex")}`;
  const bus = await connectBus({ url: natsUrl, name: "scanner-test", logger: silentLogger, namespace });
  await bus.ensureStreams([transferMatched, blockProcessed, webhookChanged, webhookAddresses]);
  const transfers: TransferMatched[] = [];
  const blocks: BlockProcessed[] = [];
  const consumptions: Consumption[] = [
    await bus.consume(transferMatched, { durable: "test-transfers", handle: async (event) => void transfers.push(event) }),
    await bus.consume(blockProcessed, { durable: "test-blocks", handle: async (event) => void blocks.push(event) }),
  ];
  let version = 0;
  /** Levels only grow, as in the registry. */
  const levels = new Map<number, number>();
  return {
    bus,
    namespace,
    transfers,
    blocks,
    async publishWebhook({ addresses, ...change }) {
      const current = ++version;
      const bits = Math.max(levels.get(change.webhook_id) ?? 0, bucketBitsFor(addresses.length));
      levels.set(change.webhook_id, bits);
      const buckets = Array.from({ length: 2 ** bits }, () => [] as string[]);
      for (const address of addresses) buckets[bucketOf(bucketHash(address), bits)]!.push(address);
      for (const [bucket, list] of buckets.entries()) {
        await bus.publish(webhookAddresses, { webhook_id: change.webhook_id, coin: change.coin, bucket_bits: bits, bucket, version: current, addresses: list });
      }
      await bus.publish(webhookChanged, {
        is_active: true,
        deleted: false,
        confirmations: DEFAULT_CONFIRMATIONS,
        include_tokens: defaultIncludeTokens(change.coin),
        ...change,
        version: current,
        address_count: addresses.length,
        bucket_bits: bits,
      });
    },
    async waitFor(description, condition, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      for (const consumption of consumptions) await consumption.stop();
      await bus.close();
    },
  };
}

/** Resolves once the scanner's projection holds the webhook and all its addresses (see WEBHOOK_WATCHED_SQL). */
export async function waitForWebhookStored(connectionString: string, webhookId: number, timeoutMs = 10_000, minVersion = 0): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rowCount } = await client.query(WEBHOOK_WATCHED_SQL, [webhookId, minVersion]);
      if (rowCount) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`webhook ${webhookId} never reached the scanner's projection`);
  } finally {
    await client.end();
  }
}
