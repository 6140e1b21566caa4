/** What the scanner replicas have done, read from their metrics while the drill runs. */
import type { NotificationStack } from "../notification-stack.ts";
import type { ScannedCoin } from "../scanner-watch.ts";
import { SEE_BRANCH_MS, sleep } from "./hostile-drill.ts";

const SCANNERS = ["scanner", "scanner-2"];

/** A scanner replica's metrics; empty while it is being restarted. */
async function scannerMetrics(product: NotificationStack, name: string): Promise<string> {
  try {
    return await (await fetch(`${product.stack.url(name)}/metrics`)).text();
  } catch {
    return "";
  }
}

/** The highest block a scanner replica has processed for `coin`. */
async function scannedHeight(product: NotificationStack, coin: ScannedCoin): Promise<number> {
  const metrics = await Promise.all(SCANNERS.map((name) => scannerMetrics(product, name)));
  return Math.max(
    0,
    ...metrics.map((text) => Number(new RegExp(`scanner_height\\{chain="${coin.toLowerCase()}"\\} (\\d+)`).exec(text)?.[1] ?? 0)),
  );
}

/** Waits (bounded) until a replica has processed `height` of `coin`; false when it has not in time. */
export async function scannerReaches(product: NotificationStack, coin: ScannedCoin, height: number): Promise<boolean> {
  const deadline = Date.now() + SEE_BRANCH_MS;
  while (Date.now() < deadline) {
    if ((await scannedHeight(product, coin)) >= height) return true;
    await sleep(200);
  }
  return false;
}

/** The scanner replica holding `coin`'s lease, by its metrics; undefined during a handover. */
export async function leaseHolder(product: NotificationStack, coin: ScannedCoin): Promise<string | undefined> {
  for (const name of SCANNERS)
    if (new RegExp(`scanner_leader\\{chain="${coin.toLowerCase()}"\\} 1\\n`).test(await scannerMetrics(product, name))) return name;
  return undefined;
}
