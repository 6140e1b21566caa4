/**
 * The btc-proxy stack as test fixtures (vitest `test.extend`, see @chaingate/testing's
 * `integrationTest`): a litecoind regtest node with mature coins and a btc-proxy in front of it
 * (startBtcStack), started once per test file when a test first asks for it, stopped after the file.
 *
 *   const it = btcProxyTest;
 *   it("…", async ({ btcStack }) => { … });
 *
 * Not re-exported from testing/index.ts: it imports vitest, which benchmarks cannot load.
 */
import { integrationTest } from "@chaingate/testing/fixtures";
import { startBtcStack, type BtcStack } from "./start-btc-stack.ts";

export interface BtcProxyFixtures {
  /** The node and the proxy, called at its internal edge as the gateway calls it. */
  btcStack: BtcStack;
}

export const btcProxyTest = integrationTest.extend<BtcProxyFixtures>({
  btcStack: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
    async ({}, use) => {
      const stack = await startBtcStack();
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: "file" },
  ],
});
