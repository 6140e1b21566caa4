/**
 * What a drill (or bench) must know about the scanner before it pays: that a webhook has reached
 * its watch projection (watching starts at the next block processed after that), and how many
 * blocks of a chain it has processed. The projection's layout belongs to the scanner; this file is
 * the one place outside it that reads the projection.
 */
import pg from "pg";

export type ScannedCoin = "BTC" | "ETH" | "TRX";

const WAIT_TIMEOUT_MS = 20_000;
const POLL_INTERVAL_MS = 100;

async function pollUntil(description: string, done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/**
 * Resolves once the scanner's projection (schema `scanner` of its database) holds the webhook,
 * active, with every one of `addresses` in the form the registry stored them (its answer's
 * `addresses`); the next block the scanner processes then watches them.
 */
export async function waitUntilWatched(connectionString: string, webhookId: number, addresses: readonly string[], timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // The meta row, and each address in a bucket of the webhook's current level (the compacted feed's layout).
    const query = `
      select 1 from scanner.webhooks w
       where w.webhook_id = $1 and w.is_active and not w.deleted
         and (select count(*) from scanner.webhook_buckets b, jsonb_array_elements_text(b.addresses) a
               where b.webhook_id = w.webhook_id and b.bucket_bits = w.bucket_bits and a = any($2::text[])) = cardinality($2::text[])`;
    await pollUntil(
      `webhook ${webhookId} is in the scanner's watch projection`,
      async () => (await client.query(query, [webhookId, [...new Set(addresses)]])).rowCount === 1,
      timeoutMs,
    );
  } finally {
    await client.end();
  }
}

/** Blocks of `coin` the scanner at `scannerUrl` processed since its process started (`scanner_blocks_processed_total`). */
export async function processedBlocks(scannerUrl: string, coin: ScannedCoin): Promise<number> {
  const metrics = await (await fetch(`${scannerUrl}/metrics`)).text();
  return Number(new RegExp(`scanner_blocks_processed_total\\{chain="${coin.toLowerCase()}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
}

/** Resolves once the scanner processed at least `count` more blocks of `coin` than `before` (a `processedBlocks` reading). */
export async function waitUntilProcessed(scannerUrl: string, coin: ScannedCoin, before: number, count = 1, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  await pollUntil(`the scanner processed ${count} more ${coin} block(s)`, async () => (await processedBlocks(scannerUrl, coin)) >= before + count, timeoutMs);
}
