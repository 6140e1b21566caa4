import { describe, expect } from "vitest";
import { integrationTest as it } from "./fixtures/integration-test.ts";
import { HARDHAT_ACCOUNT_COUNT, HARDHAT_CHAIN_ID, HardhatRpcError, startHardhat } from "./hardhat-node.ts";
import { waitForPort } from "./processes.ts";

describe("startHardhat", () => {
  it("serves JSON-RPC on its url with chain id 31337", async ({ hardhat: node }) => {
    expect(node.url).toBe(`http://127.0.0.1:${node.port}`);
    expect(Number(await node.rpc<string>("eth_chainId"))).toBe(HARDHAT_CHAIN_ID);
    expect(Number(await node.rpc<string>("net_version"))).toBe(HARDHAT_CHAIN_ID);
  });

  it("exposes the 20 dev accounts the node funds, with the keys it printed", async ({ hardhat: node }) => {
    expect(node.accounts).toHaveLength(HARDHAT_ACCOUNT_COUNT);
    expect(node.accounts.map((account) => account.index)).toEqual([...Array(HARDHAT_ACCOUNT_COUNT).keys()]);
    const unlocked = await node.rpc<string[]>("eth_accounts");
    expect(node.accounts.map((account) => account.address.toLowerCase())).toEqual(unlocked.map((address) => address.toLowerCase()));
    for (const account of node.accounts) {
      expect(account.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
      expect(BigInt(await node.rpc<string>("eth_getBalance", [account.address, "latest"]))).toBe(BigInt(account.balanceEth) * 10n ** 18n);
    }
    // The well-known first account of the default mnemonic.
    expect(node.accounts[0]!.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });

  it("throws the node's error code for a refused call", async ({ hardhat: node }) => {
    await expect(node.rpc("eth_getBalance", ["0x0"])).rejects.toMatchObject({ code: -32602 });
    await expect(node.rpc("eth_getBalance", ["0x0"])).rejects.toBeInstanceOf(HardhatRpcError);
  });

  it("stops cleanly: the port closes and the process is gone", async ({ hardhat: node }) => {
    const second = await startHardhat();
    expect(second.port).not.toBe(node.port);
    await second.stop();
    await waitForPort(second.port, false, 5_000);
    await expect(second.rpc("eth_chainId")).rejects.toThrow();
  });
});
