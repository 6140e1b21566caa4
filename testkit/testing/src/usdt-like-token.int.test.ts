/** The dev stack's USDT-like ERC-20 on a real Hardhat node: supply, transfers, Transfer logs, refusals. */
import { describe, expect } from "vitest";
import { integrationTest } from "./fixtures/integration-test.ts";
import { deployUsdtLikeToken, USDT_LIKE_SUPPLY, type DeployedToken } from "./usdt-like-token.ts";

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** The token, deployed once on the file's Hardhat node. */
const it = integrationTest.extend<{ usdtLikeToken: DeployedToken }>({
  usdtLikeToken: [async ({ hardhat }, use) => use(await deployUsdtLikeToken(hardhat)), { scope: "file" }],
});

describe("UsdtLikeToken", () => {
  it("mints the supply to the deployer, moves balances and logs each transfer as ERC-20 Transfer(from, to, value)", async ({
    hardhat: node,
    usdtLikeToken: token,
  }) => {
    const [owner, payee] = [node.accounts[0]!.address, node.accounts[5]!.address];
    expect(await token.balanceOf(owner)).toBe(USDT_LIKE_SUPPLY);
    const hash = await node.rpc<string>("eth_sendTransaction", [
      { from: owner, to: token.address, data: token.transferData(payee, 2_500_000n) },
    ]);
    const receipt = await node.rpc<{ status: string; logs: Array<{ address: string; topics: string[]; data: string }> }>(
      "eth_getTransactionReceipt",
      [hash],
    );
    expect(receipt.status).toBe("0x1");
    expect(receipt.logs).toEqual([
      expect.objectContaining({
        address: token.address,
        topics: [
          TRANSFER_TOPIC,
          `0x${owner.slice(2).toLowerCase().padStart(64, "0")}`,
          `0x${payee.slice(2).toLowerCase().padStart(64, "0")}`,
        ],
        data: `0x${(2_500_000).toString(16).padStart(64, "0")}`,
      }),
    ]);
    expect(await token.balanceOf(payee)).toBe(2_500_000n);
    expect(await token.balanceOf(owner)).toBe(USDT_LIKE_SUPPLY - 2_500_000n);
  });

  it("refuses a transfer above the sender's balance (the transaction fails, no log, balances unchanged)", async ({
    hardhat: node,
    usdtLikeToken: token,
  }) => {
    const [poor, payee] = [node.accounts[9]!.address, node.accounts[5]!.address];
    const before = await token.balanceOf(payee);
    await expect(
      node.rpc("eth_sendTransaction", [{ from: poor, to: token.address, data: token.transferData(payee, 1n), gas: "0x30000" }]),
    ).rejects.toThrow(/balance too low/);
    expect(await token.balanceOf(payee)).toBe(before);
  });
});
