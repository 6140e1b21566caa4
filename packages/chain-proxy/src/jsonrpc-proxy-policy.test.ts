/**
 * The generic policy as the JSON-RPC 2.0 proxies use it (eth-proxy, trx-proxy's /jsonrpc). The
 * Bitcoin configuration is proven byte for byte by the btc-proxy's fixture vectors.
 */
import { describe, expect, it } from "vitest";
import { createJsonRpcProxyPolicy, type JsonRpcPolicyDecision } from "./jsonrpc-proxy-policy.ts";

const policy = createJsonRpcProxyPolicy({
  allowedMethods: ["eth_blockNumber", "eth_getBalance", "eth_sendRawTransaction"],
  forwardedVersion: "2.0",
  maxBatchCalls: 3,
  paramsRequired: false,
  allowedDescription: "the read methods and eth_sendRawTransaction",
});

const refused = (decision: JsonRpcPolicyDecision) => {
  if (decision.ok) throw new Error("expected a refusal");
  return decision;
};

describe("createJsonRpcProxyPolicy, JSON-RPC 2.0", () => {
  it("re-encodes a call with jsonrpc and id first, a missing params as []", () => {
    const decision = policy.evaluate('{"method":"eth_blockNumber","id":"a","jsonrpc":"2.0","extra":1}');
    expect(decision.ok && decision.forwardBody).toBe('{"jsonrpc":"2.0","id":"a","method":"eth_blockNumber","params":[]}');
    const batch = policy.evaluate(
      '[{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xabc","latest"]},{"id":2,"method":"eth_blockNumber"}]',
    );
    expect(batch.ok && batch.forwardBody).toBe(
      '[{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xabc","latest"]},{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber","params":[]}]',
    );
  });

  it("refuses a method off the allowlist with 403 -32601 naming it, and a whole batch with it", () => {
    expect(refused(policy.evaluate('{"jsonrpc":"2.0","id":9,"method":"eth_sendTransaction","params":[]}'))).toEqual({
      ok: false,
      status: 403,
      body: {
        error: {
          code: -32601,
          message: 'Method not allowed: "eth_sendTransaction" is not one of the read methods and eth_sendRawTransaction',
        },
        id: 9,
      },
    });
    const batch = refused(policy.evaluate('[{"id":1,"method":"eth_blockNumber"},{"id":2,"method":"hardhat_mine"}]'));
    expect(batch).toMatchObject({ status: 403, body: { error: { code: -32601 }, id: null } });
    expect(batch.body.error.message).toContain("batch index 1");
  });

  it("applies its own batch cap", () => {
    const calls = (n: number) => JSON.stringify(Array.from({ length: n }, (_v, id) => ({ id, method: "eth_blockNumber" })));
    expect(policy.evaluate(calls(3)).ok).toBe(true);
    expect(refused(policy.evaluate(calls(4)))).toMatchObject({
      status: 400,
      body: { error: { code: -32600, message: expect.stringContaining("at most 3") } },
    });
  });

  it("refuses a body nested deeper than the bound with 400 -32600 in the JSON-RPC shape, however deep", () => {
    for (const depth of [65, 10_000, 200_000]) {
      const params = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const decision = refused(policy.evaluate(`{"jsonrpc":"2.0","id":5,"method":"eth_getBalance","params":${params}}`));
      expect(decision).toMatchObject({
        status: 400,
        body: { error: { code: -32600, message: expect.stringContaining("64 levels") }, id: 5 },
      });
      // The refusal itself can be encoded: nothing deep is echoed.
      expect(() => JSON.stringify(decision.body)).not.toThrow();
    }
    const deepId = refused(policy.evaluate(`{"id":${"[".repeat(100_000)}${"]".repeat(100_000)},"method":"eth_blockNumber"}`));
    expect(deepId.body.id).toBeNull();
    expect(policy.evaluate(`{"id":1,"method":"eth_getBalance","params":${"[".repeat(62)}${"]".repeat(62)}}`).ok).toBe(true);
  });
});
