/**
 * The Bitcoin rules in the shared policy, proven by fixture vectors: what POST /api/v1/btc/jsonrpc
 * forwards, byte for byte, and what it refuses (every wallet method among them).
 */
import { createJsonRpcProxyPolicy, jsonRpcProxyErrorBody, type JsonRpcPolicyDecision } from "@chaingate/chain-proxy";
import { BTC_JSONRPC_ALLOWED_METHODS } from "@chaingate/contracts";
import { describe, expect, it } from "vitest";
import fixture from "./fixtures/jsonrpc-requests.json" with { type: "json" };
import { btcJsonRpcRules } from "./jsonrpc-rules.ts";

const policy = createJsonRpcProxyPolicy(btcJsonRpcRules);
const evaluateJsonRpcRequest = (rawBody: string | Uint8Array) => policy.evaluate(rawBody);

interface Case {
  name: string;
  raw?: string;
  json?: unknown;
  expect:
    | { ok: true; isBatch: boolean; forward: unknown[] }
    | { ok: false; status: number; code: number; id: unknown; messageIncludes: string[] };
}

const cases = fixture.cases as Case[];

/**
 * Spec rule 1 (spec/api-v1.md, POST /api/v1/btc/jsonrpc) as the spec words it: the expectation the
 * contract's list (BTC_JSONRPC_ALLOWED_METHODS), the rules and the fixture vectors are held to.
 * Written apart from the contract on purpose: a change to either fails the test below.
 */
const SPEC_RULE_1 =
  "decoderawtransaction, estimatesmartfee, getbestblockhash, getblock, getblockchaininfo, getblockcount, getblockhash, getblockheader, getblockstats, getdifficulty, getmempoolinfo, getrawtransaction, gettxout, sendrawtransaction, testmempoolaccept";
const SPEC_ALLOWED_METHODS = SPEC_RULE_1.split(", ").sort();

function bodyOf(testCase: Case): string {
  return testCase.raw !== undefined ? testCase.raw : JSON.stringify(testCase.json);
}

describe("evaluateJsonRpcRequest", () => {
  for (const testCase of cases) {
    it(testCase.name, () => {
      const decision = evaluateJsonRpcRequest(bodyOf(testCase));
      const expected = testCase.expect;
      if (expected.ok) {
        expect(decision).toMatchObject({ ok: true, isBatch: expected.isBatch });
        const accepted = decision as Extract<JsonRpcPolicyDecision, { ok: true }>;
        expect(accepted.forward).toEqual(expected.forward);
        // What goes on the wire is exactly the re-encoded calls, member for member.
        expect(JSON.parse(accepted.forwardBody)).toEqual(expected.isBatch ? expected.forward : expected.forward[0]);
        return;
      }
      expect(decision.ok).toBe(false);
      const rejected = decision as Extract<JsonRpcPolicyDecision, { ok: false }>;
      expect(rejected.status).toBe(expected.status);
      expect(rejected.body.error.code).toBe(expected.code);
      expect(rejected.body.id).toEqual(expected.id);
      expect(rejected.body).not.toHaveProperty("result");
      expect(Object.keys(rejected.body).sort()).toEqual(["error", "id"]);
      for (const fragment of expected.messageIncludes) expect(rejected.body.error.message).toContain(fragment);
      expect(rejected.body.error.message.length).toBeLessThan(300);
    });
  }

  it("lists exactly the spec's 15 methods", () => {
    expect(SPEC_ALLOWED_METHODS).toHaveLength(15);
    expect([...BTC_JSONRPC_ALLOWED_METHODS].sort()).toEqual(SPEC_ALLOWED_METHODS);
    expect([...btcJsonRpcRules.allowedMethods].sort()).toEqual(SPEC_ALLOWED_METHODS);
    const acceptedSingles = cases.filter((c) => c.name.startsWith("allowed method "));
    expect(acceptedSingles.map((c) => (c.json as { method: string }).method).sort()).toEqual(SPEC_ALLOWED_METHODS);
  });

  it("gives an empty batch a different message from a missing method", () => {
    const empty = evaluateJsonRpcRequest("[]");
    const missing = evaluateJsonRpcRequest(JSON.stringify({ jsonrpc: "1.0", id: 1, params: [] }));
    expect(empty.ok || missing.ok).toBe(false);
    if (!empty.ok && !missing.ok) {
      expect(empty.body.error.code).toBe(-32600);
      expect(missing.body.error.code).toBe(-32600);
      expect(empty.body.error.message).not.toBe(missing.body.error.message);
    }
  });

  it("accepts the body as bytes, and refuses bytes that are not UTF-8 as a parse error", () => {
    const ok = evaluateJsonRpcRequest(new TextEncoder().encode('{"jsonrpc":"1.0","id":1,"method":"getblockcount","params":[]}'));
    expect(ok.ok).toBe(true);
    const bad = evaluateJsonRpcRequest(Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]));
    expect(bad).toMatchObject({ ok: false, status: 400, body: { error: { code: -32700 } } });
  });

  it("never forwards anything but jsonrpc, method, params and id, even with a polluted prototype member", () => {
    const decision = evaluateJsonRpcRequest(
      '{"jsonrpc":"1.0","id":1,"method":"getblockcount","params":[],"__proto__":{"method":"dumpprivkey"}}',
    );
    expect(decision.ok).toBe(true);
    if (decision.ok) expect(decision.forwardBody).toBe('{"jsonrpc":"1.0","method":"getblockcount","params":[],"id":1}');
  });

  it("builds the node-unreachable body of rule 7", () => {
    expect(jsonRpcProxyErrorBody(-32603, "Could not connect to BTC node.", "abc")).toEqual({
      error: { code: -32603, message: "Could not connect to BTC node." },
      id: "abc",
    });
  });
});
