/**
 * Any EVM chain by configuration (issue 31): one scanner follows Ethereum and three EVM chains of
 * EVM_CHAINS, each on its own real Anvil with its own chain id: Polygon (137) and BNB Chain (56),
 * named by the well-known table, and a chain no source file names (31338, given whole in the
 * setting). One address watched on every chain (one key, the same address on every EVM chain):
 * each chain's deposits reach only that chain's webhook, named by its coin and native currency
 * and carrying its CAIP-2 id; value a contract forwards on Polygon is an internal transfer; a
 * reorg on BNB Chain reverts; a node answering another chain id is never followed.
 */
import { deployValueRouter, startAnvil, type AnvilNode } from "@chaingate/testing";
import { fileResource } from "@chaingate/testing/fixtures";
import { Wallet } from "ethers";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { readyzOf, waitForWebhookStored, waitUntil, type EventRecorder } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";

const tip = async (node: AnvilNode) => Number(await node.rpc<string>("eth_blockNumber"));
const processedOn = (recorder: EventRecorder, coin: string, height: number) =>
  recorder.waitFor(`${coin} block ${height}`, () => recorder.blocks.some((block) => block.coin === coin && block.height >= height), 20_000);
const send = (node: AnvilNode, to: string, wei: bigint) =>
  node.rpc<string>("eth_sendTransaction", [{ from: node.accounts[0]!.address, to, value: `0x${wei.toString(16)}` }]);

interface Chains {
  polygon: AnvilNode;
  bsc: AnvilNode;
  devnet: AnvilNode;
}

const it = scannerTest.extend<Chains & { scanner: ScannerService }>({
  polygon: fileResource(
    () => startAnvil({ chainId: 137 }),
    (node) => node.stop(),
  ),
  bsc: fileResource(
    () => startAnvil({ chainId: 56 }),
    (node) => node.stop(),
  ),
  devnet: fileResource(
    () => startAnvil({ chainId: 31338 }),
    (node) => node.stop(),
  ),
  scanner: [
    async ({ anvil, polygon, bsc, devnet, database, recorder }, use) => {
      const scanner = await startTestScanner(database, recorder, {
        ETH_RPC_URL: anvil.url,
        EVM_CHAINS: JSON.stringify([
          { name: "polygon", rpc_urls: [polygon.url] },
          { name: "bsc", rpc_urls: [bsc.url] },
          // Its own trace mode: off, while Ethereum and the other chains trace (ETH_TRACE_MODE's default).
          {
            name: "devnet",
            chain_id: 31338,
            symbol: "DEV",
            rpc_urls: [devnet.url],
            confirmations: { max: 10 },
            reorg_window: 20,
            trace_mode: "off",
          },
          // A node of another chain given for a chain: refused, never followed.
          { name: "base", rpc_urls: [polygon.url] },
        ]),
      });
      try {
        for (const [coin, node] of [
          ["ETH", anvil],
          ["POLYGON", polygon],
          ["BSC", bsc],
          ["DEVNET", devnet],
        ] as const)
          await processedOn(recorder, coin, await tip(node));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file", auto: true },
  ],
});

describe("EVM chains of EVM_CHAINS, each on its own Anvil", () => {
  it("a deposit on each chain reaches that chain's webhook only, named by its coin, currency and chain id", async ({
    anvil,
    polygon,
    bsc,
    devnet,
    database,
    recorder,
  }) => {
    const payee = Wallet.createRandom().address;
    const chains = [
      { coin: "ETH", node: anvil, webhook: 31, currency: "ETH", chain: "eip155:31337" },
      { coin: "POLYGON", node: polygon, webhook: 32, currency: "POL", chain: "eip155:137" },
      { coin: "BSC", node: bsc, webhook: 33, currency: "BNB", chain: "eip155:56" },
      { coin: "DEVNET", node: devnet, webhook: 34, currency: "DEV", chain: "eip155:31338" },
    ];
    for (const { coin, webhook } of chains) await recorder.publishWebhook({ webhook_id: webhook, coin, addresses: [payee] });
    for (const { webhook } of chains) await waitForWebhookStored(database.connectionString, webhook);
    const sent: string[] = [];
    for (const [i, { node }] of chains.entries()) sent.push(await send(node, payee, BigInt(i + 1) * 10n ** 15n));
    for (const [i, { coin, node, webhook, currency, chain }] of chains.entries()) {
      await processedOn(recorder, coin, await tip(node));
      await recorder.waitFor(`the ${coin} deposit`, () => recorder.transfers.some((t) => t.txid === sent[i]));
      expect(recorder.transfers.filter((t) => t.txid === sent[i])).toEqual([
        expect.objectContaining({
          type: "transfer",
          webhook_id: webhook,
          coin,
          currency,
          chain,
          to: payee.toLowerCase(),
          raw_amount: (BigInt(i + 1) * 10n ** 15n).toString(),
          decimals: 18,
          internal: false,
        }),
      ]);
    }
    expect(recorder.blocks.some((block) => block.coin === "BASE")).toBe(false);
  });

  it("a chain whose node answers another chain id is refused and said (/readyz), never followed", async ({ scanner, recorder }) => {
    await waitUntil("BASE stopped", async () => JSON.stringify(await readyzOf(scanner)).includes("stopped_wrong_chain"));
    const { failures } = (await readyzOf(scanner)) as unknown as { failures: Record<string, string> };
    expect(failures.BASE).toMatch(/serves chain id 137, genesis 0x[0-9a-f]{64}, not chain id 8453/);
    expect(Object.keys(failures)).toEqual(["BASE"]);
    expect(recorder.blocks.some((block) => block.coin === "BASE")).toBe(false);
  });

  it("ether a contract forwards on Polygon is an internal transfer, as on Ethereum", async ({ polygon, database, recorder }) => {
    const router = await deployValueRouter(polygon);
    const payee = Wallet.createRandom().address;
    await recorder.publishWebhook({ webhook_id: 35, coin: "POLYGON", addresses: [payee] });
    await waitForWebhookStored(database.connectionString, 35);
    const txid = await router.forward(payee, 7n);
    await processedOn(recorder, "POLYGON", await tip(polygon));
    await recorder.waitFor("the internal transfer", () => recorder.transfers.some((t) => t.txid === txid));
    expect(recorder.transfers.filter((t) => t.txid === txid)).toEqual([
      expect.objectContaining({
        coin: "POLYGON",
        currency: "POL",
        from: router.address,
        internal: true,
        trace_address: "0",
        raw_amount: "7",
      }),
    ]);
  });

  it("a chain's own trace_mode: DEVNET (off) sees the plain payment and not the forwarded one; Polygon traces", async ({
    devnet,
    database,
    recorder,
  }) => {
    const router = await deployValueRouter(devnet);
    const [forwardedTo, paidDirectly] = [Wallet.createRandom().address, Wallet.createRandom().address];
    await recorder.publishWebhook({ webhook_id: 36, coin: "DEVNET", addresses: [forwardedTo, paidDirectly] });
    await waitForWebhookStored(database.connectionString, 36);
    const forwarded = await router.forward(forwardedTo, 7n);
    const direct = await devnet.rpc<string>("eth_sendTransaction", [{ from: devnet.accounts[1]!.address, to: paidDirectly, value: "0x5" }]);
    await processedOn(recorder, "DEVNET", await tip(devnet));
    await recorder.waitFor("the plain payment", () => recorder.transfers.some((t) => t.txid === direct));
    expect(recorder.transfers.filter((t) => t.txid === forwarded)).toEqual([]);
    expect(BigInt(await devnet.rpc<string>("eth_getBalance", [forwardedTo, "latest"]))).toBe(7n);
  });

  it("a deposit whose BNB Chain block leaves the best chain is reverted on BSC alone", async ({ bsc, database, recorder }) => {
    const payee = Wallet.createRandom().address;
    await recorder.publishWebhook({ webhook_id: 36, coin: "BSC", addresses: [payee] });
    await waitForWebhookStored(database.connectionString, 36);
    const snapshot = await bsc.rpc<string>("evm_snapshot");
    const txid = await send(bsc, payee, 5n);
    await recorder.waitFor("the transfer", () => recorder.transfers.some((t) => t.txid === txid));
    await bsc.rpc("evm_revert", [snapshot]);
    await bsc.rpc("evm_mine");
    await bsc.rpc("evm_mine");
    await recorder.waitFor("the revert", () => recorder.transfers.some((t) => t.txid === txid && t.type === "reverted"));
    expect(recorder.transfers.filter((t) => t.txid === txid).map((t) => [t.type, t.coin, t.currency])).toEqual([
      ["transfer", "BSC", "BNB"],
      ["reverted", "BSC", "BNB"],
    ]);
  });
});
