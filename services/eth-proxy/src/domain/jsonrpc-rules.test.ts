/** The Ethereum rules in the shared policy: every listed method passes, nothing that signs, holds keys or node state does. */
import { createJsonRpcProxyPolicy } from "@chaingate/chain-proxy";
import { describe, expect, it } from "vitest";
import { ethJsonRpcRules } from "./jsonrpc-rules.ts";

const policy = createJsonRpcProxyPolicy(ethJsonRpcRules);
const call = (method: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method });

describe("ethJsonRpcRules", () => {
  it.each([...ethJsonRpcRules.allowedMethods])("forwards %s", (method) => {
    expect(policy.evaluate(call(method))).toMatchObject({ ok: true, forward: [{ jsonrpc: "2.0", id: 1, method, params: [] }] });
  });

  it.each([
    "eth_sendTransaction",
    "eth_sign",
    "eth_signTransaction",
    "eth_signTypedData_v4",
    "eth_accounts",
    "eth_coinbase",
    "personal_sign",
    "personal_unlockAccount",
    "personal_listAccounts",
    "admin_addPeer",
    "debug_traceTransaction",
    "miner_start",
    "txpool_content",
    "hardhat_mine",
    "hardhat_setBalance",
    "evm_mine",
    "evm_increaseTime",
    "eth_newFilter",
    "eth_newBlockFilter",
    "eth_getFilterChanges",
    "eth_uninstallFilter",
    "eth_subscribe",
    "ETH_BLOCKNUMBER",
    "eth_blockNumber ",
  ])("refuses %s with 403 -32601", (method) => {
    expect(policy.evaluate(call(method))).toMatchObject({ ok: false, status: 403, body: { error: { code: -32601 }, id: 1 } });
  });

  it("lets a call omit params, and caps a batch at 1,000 calls", () => {
    expect(ethJsonRpcRules.paramsRequired).toBe(false);
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_v, id) => ({ jsonrpc: "2.0", id, method: "eth_chainId" })));
    expect(policy.evaluate(batch(1_000)).ok).toBe(true);
    expect(policy.evaluate(batch(1_001))).toMatchObject({ ok: false, status: 400, body: { error: { code: -32600 } } });
  });
});
