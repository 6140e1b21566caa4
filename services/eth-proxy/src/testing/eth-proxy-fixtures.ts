/**
 * The eth-proxy stack as test fixtures (vitest `test.extend`, see @chaingate/testing's
 * `integrationTest`): a Hardhat node, a recording relay and an eth-proxy in front of them
 * (startEthStack), started once per test file when a test first asks for it, stopped after the file.
 *
 *   const it = ethProxyTest;
 *   ethProxyTest.scoped({ ethStackSettings: { proxyEnv: { ETH_RPC_MAX_BATCH: "3" } } }); // settings of the file's own
 *
 * Not re-exported from testing/index.ts: it imports vitest, which benchmarks cannot load.
 */
import { integrationTest } from "@chaingate/testing/fixtures";
import { startEthStack, type EthStack } from "./start-eth-stack.ts";

export interface EthProxyFixtures {
  /** Settings of the file's stack (set with `ethProxyTest.scoped`). */
  ethStackSettings: Parameters<typeof startEthStack>[0];
  /** The node, the relay and the proxy, called at its internal edge as the gateway calls it. */
  ethStack: EthStack;
}

export const ethProxyTest = integrationTest.extend<EthProxyFixtures>({
  ethStackSettings: [{}, { scope: "file" }],
  ethStack: [
    async ({ ethStackSettings }, use) => {
      const stack = await startEthStack(ethStackSettings);
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: "file" },
  ],
});
