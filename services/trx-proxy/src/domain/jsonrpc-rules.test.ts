/** The Tron rules in the shared policy: java-tron's 25 read methods pass; nothing that sends, signs or keeps filter state does. */
import { createJsonRpcProxyPolicy } from "@chaingate/chain-proxy";
import { describe, expect, it } from "vitest";
import { trxJsonRpcRules } from "./jsonrpc-rules.ts";

const policy = createJsonRpcProxyPolicy(trxJsonRpcRules);
const call = (method: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method });

describe("trxJsonRpcRules", () => {
  it("lists java-tron's 25 read methods", () => {
    expect(trxJsonRpcRules.allowedMethods).toHaveLength(25);
    expect(new Set(trxJsonRpcRules.allowedMethods).size).toBe(25);
  });

  it.each([...trxJsonRpcRules.allowedMethods])("forwards %s", (method) => {
    expect(policy.evaluate(call(method))).toMatchObject({ ok: true, forward: [{ jsonrpc: "2.0", id: 1, method, params: [] }] });
  });

  it.each([
    "eth_sendRawTransaction",
    "eth_sendTransaction",
    "eth_sign",
    "eth_signTransaction",
    "eth_accounts",
    "eth_coinbase",
    "buildTransaction",
    "eth_newFilter",
    "eth_newBlockFilter",
    "eth_getFilterChanges",
    "eth_getFilterLogs",
    "eth_uninstallFilter",
    "eth_getTransactionCount",
    "personal_sign",
    "Eth_call",
  ])("refuses %s with 403 -32601", (method) => {
    expect(policy.evaluate(call(method))).toMatchObject({ ok: false, status: 403, body: { error: { code: -32601 }, id: 1 } });
  });
});
