/**
 * The trx-proxy stack as test fixtures (vitest `test.extend`, see @chaingate/testing's
 * `integrationTest`): the Tron simulator and a trx-proxy in front of it (startTrxStack), started
 * once per test file when a test first asks for it, and stopped after the file.
 *
 *   const it = trxProxyTest;
 *   trxProxyTest.scoped({ trxStackSettings: { env: { LOG_LEVEL: "trace" } } }); // settings of the file's own
 *
 * Not re-exported from testing/index.ts: it imports vitest, which benchmarks cannot load.
 */
import { integrationTest } from "@chaingate/testing/fixtures";
import { startTrxStack, type TrxStack, type TrxStackOptions } from "./start-trx-stack.ts";

export interface TrxProxyFixtures {
  /** Options of the file's stack: the simulator's, the proxy's settings, logger and dependencies (set with `trxProxyTest.scoped`). */
  trxStackSettings: TrxStackOptions;
  /** The simulator and the proxy, called at its internal edge as the gateway calls it. */
  trxStack: TrxStack;
}

export const trxProxyTest = integrationTest.extend<TrxProxyFixtures>({
  trxStackSettings: [{}, { scope: "file" }],
  trxStack: [
    async ({ trxStackSettings }, use) => {
      const stack = await startTrxStack(trxStackSettings);
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: "file" },
  ],
});
