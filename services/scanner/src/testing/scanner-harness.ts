/**
 * A scanner under test with its own database and NATS namespace, and a recorder of what it
 * publishes (transfer.matched, block.processed) read back through durable consumers.
 */
import { randomBytes } from "node:crypto";
import { connectBus, type Bus, type Consumption } from "@chaingate/bus";
import { blockProcessed, transferMatched, webhookChanged, type EventPayload } from "@chaingate/contracts";
import { silentLogger } from "@chaingate/testing";
import pg from "pg";

export type TransferMatched = EventPayload<typeof transferMatched>;
export type BlockProcessed = EventPayload<typeof blockProcessed>;
export type WebhookChanged = EventPayload<typeof webhookChanged>;

export interface EventRecorder {
  bus: Bus;
  namespace: string;
  transfers: TransferMatched[];
  blocks: BlockProcessed[];
  publishWebhook(change: Partial<WebhookChanged> & Pick<WebhookChanged, "webhook_id" | "coin" | "addresses">): Promise<void>;
  waitFor(description: string, condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startEventRecorder(natsUrl = process.env.NATS_URL!): Promise<EventRecorder> {
  const namespace = `scan${randomBytes(4).toString("hex")}`;
  const bus = await connectBus({ url: natsUrl, name: "scanner-test", logger: silentLogger, namespace });
  await bus.ensureStreams([transferMatched, blockProcessed, webhookChanged]);
  const transfers: TransferMatched[] = [];
  const blocks: BlockProcessed[] = [];
  const consumptions: Consumption[] = [
    await bus.consume(transferMatched, { durable: "test-transfers", handle: async (event) => void transfers.push(event) }),
    await bus.consume(blockProcessed, { durable: "test-blocks", handle: async (event) => void blocks.push(event) }),
  ];
  let version = 0;
  return {
    bus,
    namespace,
    transfers,
    blocks,
    async publishWebhook(change) {
      await bus.publish(webhookChanged, { is_active: true, deleted: false, version: ++version, ...change });
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

/** Resolves once the scanner's projection (schema `scanner`) holds the webhook: the next processed block watches it. */
export async function waitForWebhookStored(connectionString: string, webhookId: number, timeoutMs = 10_000): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rowCount } = await client.query("select 1 from scanner.webhooks where webhook_id = $1", [webhookId]);
      if (rowCount) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`webhook ${webhookId} never reached the scanner's projection`);
  } finally {
    await client.end();
  }
}
