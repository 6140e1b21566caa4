/**
 * Push for an EVM chain of EVM_CHAINS (issue 31), against a real Anvil answering Polygon's chain id:
 * its `ws_url` subscription (eth_subscribe newHeads) wakes the chain's own follower. With the poll
 * interval at 30 s, only the subscription explains a block processed within seconds.
 */
import { startAnvil, type AnvilNode } from "@chaingate/testing";
import { fileResource } from "@chaingate/testing/fixtures";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { scrapeMetrics, waitForFirstBlock, waitUntil } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

const LONG_POLL_MS = 30_000;
const PUSH_DEADLINE_MS = 5_000;

const it = scannerTest.extend<{ polygon: AnvilNode; scanner: ScannerService }>({
  polygon: fileResource(
    () => startAnvil({ chainId: 137 }),
    (node) => node.stop(),
  ),
  scanner: [
    async ({ polygon, database, recorder }, use) => {
      const scanner = await startTestScanner(database, recorder, {
        EVM_CHAINS: JSON.stringify([{ name: "polygon", rpc_urls: [polygon.url], ws_url: polygon.url.replace(/^http/, "ws") }]),
        SCANNER_POLL_INTERVAL_MS: String(LONG_POLL_MS),
        MEMPOOL_POLL_INTERVAL_MS: String(LONG_POLL_MS),
      });
      try {
        await waitForFirstBlock(recorder, () => polygon.rpc("evm_mine"));
        await waitUntil("the subscription", async () =>
          /scanner_push_channel_up\{chain="polygon",channel="ws [^"]*"\} 1\n/.test(await scrapeMetrics(scanner)),
        );
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file" },
  ],
});

describe("push for a configured EVM chain (ws_url)", () => {
  it("each Polygon block is processed within seconds though the poll interval is 30 s", async ({ polygon, scanner: _, recorder }) => {
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      await polygon.rpc("evm_mine");
      const { hash } = await polygon.rpc<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
      await recorder.waitFor(
        `block ${hash}`,
        () => recorder.blocks.some((block) => block.coin === "POLYGON" && block.hash === hash),
        PUSH_DEADLINE_MS,
      );
      expect(Date.now() - started).toBeLessThan(PUSH_DEADLINE_MS);
    }
    expect(recorder.blocks.find((block) => block.coin === "POLYGON")?.chain).toBe("eip155:137");
  });
});
