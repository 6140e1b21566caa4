/**
 * What a drill (or bench) must know about the scanner before it pays: that a webhook has reached
 * its watch projection (watching starts at the next block processed after that), and how many
 * blocks of a chain it has processed. The projection's layout belongs to the scanner: the condition
 * is the scanner's own (`WEBHOOK_WATCHED_SQL`), and this file is the one drill module that uses it.
 */
import pg from "pg";
// By path: the scanner's test condition for "watched" (a plain SQL string, no dependencies).
import { WEBHOOK_WATCHED_SQL } from "@chaingate/scanner/testing";

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
 * Resolves once the scanner's projection (schema `scanner` of its database) holds the webhook with
 * all its addresses; the next block the scanner processes then watches them.
 */
export async function waitUntilWatched(connectionString: string, webhookId: number, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await pollUntil(
      `webhook ${webhookId} is in the scanner's watch projection`,
      async () => (await client.query(WEBHOOK_WATCHED_SQL, [webhookId, 0])).rowCount === 1,
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
export async function waitUntilProcessed(
  scannerUrl: string,
  coin: ScannedCoin,
  before: number,
  count = 1,
  timeoutMs = WAIT_TIMEOUT_MS,
): Promise<void> {
  await pollUntil(
    `the scanner processed ${count} more ${coin} block(s)`,
    async () => (await processedBlocks(scannerUrl, coin)) >= before + count,
    timeoutMs,
  );
}

/** The height of the newest `coin` block the scanner at `scannerUrl` processed (`scanner_height`); 0 before any, or while it restarts. */
export async function scannedHeight(scannerUrl: string, coin: ScannedCoin): Promise<number> {
  try {
    const metrics = await (await fetch(`${scannerUrl}/metrics`)).text();
    return Number(new RegExp(`scanner_height\\{chain="${coin.toLowerCase()}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  } catch {
    return 0;
  }
}
