/** Bench set-up straight on the delivery's tables and stream: bulk webhook addresses, the registry outbox, `transfer.matched` events. */
import { connectBus } from "@chaingate/bus";
import { transferMatched, type EventPayload } from "@chaingate/contracts";
import pg from "pg";

export type TransferMatchedEvent = EventPayload<typeof transferMatched>;

/** Publishes `transfer.matched` on the namespace's stream (created if missing). */
export async function openTransferPublisher(
  natsUrl: string,
  namespace: string,
): Promise<{ publish(event: TransferMatchedEvent): Promise<unknown>; close(): Promise<void> }> {
  const bus = await connectBus({ url: natsUrl, name: "bench", logger: { info: () => {}, warn: () => {}, error: () => {} }, namespace });
  await bus.ensureStreams([transferMatched]);
  return { publish: (event) => bus.publish(transferMatched, event), close: () => bus.close() };
}

/** Adds `count` distinct lower-case ETH-form addresses to a webhook straight in Postgres. */
export async function insertManyAddresses(databaseUrl: string, webhookId: number, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into delivery.webhook_addresses (webhook_id, address) select $1, '0x' || lpad(to_hex(g), 40, '0') from generate_series(1, $2) g`,
      [webhookId, count],
    );
  } finally {
    await client.end();
  }
}

/** Resolves once the registry's outbox is empty (every change relayed to the watch feed). */
export async function waitForRegistryOutbox(databaseUrl: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: string }>("select count(*) as n from delivery.webhook_changes");
      if (rows[0]!.n === "0") return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`the registry's outbox did not drain within ${timeoutMs} ms`);
  } finally {
    await client.end();
  }
}

/** Refreshes the planner's statistics of the address table, as autovacuum does within a minute of a bulk insert. */
export async function analyzeAddresses(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("analyze delivery.webhook_addresses");
  } finally {
    await client.end();
  }
}
