/**
 * Every token, by choice (issue #31, `all_tokens`): on Anvil with real Postgres and NATS, a webhook
 * with `all_tokens` is notified of ERC-20 transfers of contracts off the chain's token list, by
 * contract address with the decimals the contract answers (read once, kept in `token_decimals`),
 * in raw units for a contract without `decimals()`, and a spam token whose `decimals()` burns all
 * its gas neither holds the block back nor gets a scale; a webhook with `include_tokens` alone gets
 * the listed token only. NFTs (four-topic Transfer logs) are never token transfers.
 */
import { deployUnlistedToken, deployUsdtLikeToken, type DeployedToken, type UnlistedToken } from "@chaingate/testing";
import { Wallet } from "ethers";
import { describe, expect } from "vitest";
import type { ScannerService } from "./create-scanner-service.ts";
import { startTestScanner } from "./testing/start-test-scanner.ts";
import { waitForWebhookStored } from "./testing/scanner-harness.ts";
import { scannerTest } from "./testing/scanner-fixtures.ts";

interface Tokens {
  listed: DeployedToken;
  /** The same contract code, off the list: 6 decimals, read from the contract. */
  unlisted: DeployedToken;
  noDecimals: UnlistedToken;
  gasBurner: UnlistedToken;
}

const it = scannerTest.extend<{ tokens: Tokens; scanner: ScannerService }>({
  tokens: [
    async ({ anvil }, use) => {
      const [listed, unlisted] = [await deployUsdtLikeToken(anvil), await deployUsdtLikeToken(anvil)];
      const noDecimals = await deployUnlistedToken(anvil, "NoDecimalsToken");
      const gasBurner = await deployUnlistedToken(anvil, "GasBurningDecimalsToken");
      await use({ listed, unlisted, noDecimals, gasBurner });
    },
    { scope: "file" },
  ],
  scanner: [
    async ({ database, recorder, anvil, tokens }, use) => {
      const scanner = await startTestScanner(database, recorder, {
        ETH_RPC_URL: anvil.url,
        ETH_TOKENS: `USDT:${tokens.listed.address}:6`,
        ETH_TRACE_MODE: "off",
      });
      try {
        // It follows from the tip it first sees: every payment comes after it.
        const tip = Number(await anvil.rpc<string>("eth_blockNumber"));
        await recorder.waitFor(`block ${tip}`, () => recorder.blocks.some((block) => block.height >= tip));
        await use(scanner);
      } finally {
        await scanner.close();
      }
    },
    { scope: "file" },
  ],
});

describe("all_tokens: every ERC-20 transfer to a watched address", () => {
  it("is notified by contract and read decimals; include_tokens alone gets the listed token only", async ({
    anvil,
    tokens,
    scanner: _scanner,
    recorder,
    database,
  }) => {
    const payee = Wallet.createRandom().address;
    await recorder.publishWebhook({ webhook_id: 1, coin: "ETH", addresses: [payee], all_tokens: true, include_tokens: false });
    await recorder.publishWebhook({ webhook_id: 2, coin: "ETH", addresses: [payee], include_tokens: true });
    await waitForWebhookStored(database.connectionString, 1);
    await waitForWebhookStored(database.connectionString, 2);
    const from = anvil.accounts[0]!.address;
    const pay = (to: string, data: string) => anvil.rpc<string>("eth_sendTransaction", [{ from, to, data }]);
    const txs = {
      listed: await pay(tokens.listed.address, tokens.listed.transferData(payee, 2_500_000n)),
      unlisted: await pay(tokens.unlisted.address, tokens.unlisted.transferData(payee, 1_230_000n)),
      noDecimals: await pay(tokens.noDecimals.address, tokens.noDecimals.transferData(payee, 77n)),
      gasBurner: await pay(tokens.gasBurner.address, tokens.gasBurner.transferData(payee, 5n)),
    };
    const of = (webhook: number, txid: string) => recorder.transfers.filter((event) => event.webhook_id === webhook && event.txid === txid);
    const last = await anvil.rpc<{ blockNumber: string }>("eth_getTransactionReceipt", [txs.gasBurner]);
    await recorder.waitFor("the payments' blocks", () => recorder.blocks.some((block) => block.height >= Number(last.blockNumber)));

    expect(of(1, txs.listed)).toEqual([
      expect.objectContaining({ currency: "USDT", token_contract: tokens.listed.address, amount: "2.5", decimals: 6 }),
    ]);
    expect(of(1, txs.unlisted)).toEqual([
      expect.objectContaining({
        currency: tokens.unlisted.address,
        token_contract: tokens.unlisted.address,
        amount: "1.23",
        raw_amount: "1230000",
        decimals: 6,
        to: payee.toLowerCase(),
        position: 0,
      }),
    ]);
    expect(of(1, txs.noDecimals)).toEqual([
      expect.objectContaining({ currency: tokens.noDecimals.address, amount: "77", raw_amount: "77", decimals: 0 }),
    ]);
    expect(of(1, txs.gasBurner)).toEqual([
      expect.objectContaining({ currency: tokens.gasBurner.address, amount: "5", raw_amount: "5", decimals: 0 }),
    ]);
    // include_tokens: the operator's list only.
    expect(of(2, txs.listed)).toHaveLength(1);
    for (const txid of [txs.unlisted, txs.noDecimals, txs.gasBurner]) expect(of(2, txid)).toEqual([]);
    // Read once, kept for every replica and replay.
    const stored = await database.query<{ contract: string; decimals: number | null }>(
      "select contract, decimals from scanner.token_decimals where coin = 'ETH' order by contract",
    );
    expect(stored).toEqual(
      [
        { contract: tokens.unlisted.address, decimals: 6 },
        { contract: tokens.noDecimals.address, decimals: null },
        { contract: tokens.gasBurner.address, decimals: null },
      ].sort((a, b) => a.contract.localeCompare(b.contract)),
    );
  });
});
