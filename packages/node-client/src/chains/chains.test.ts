import { describe, expect, it } from "vitest";
import { bitcoin } from "./bitcoin.ts";
import { ethereum } from "./ethereum.ts";
import { tron } from "./tron.ts";

describe("chain code tables (details.reason)", () => {
  it.each([
    [-5, "not_found"],
    [-1, "invalid_argument"],
    [-3, "invalid_argument"],
    [-8, "invalid_argument"],
    [-22, "invalid_argument"],
    [-26, "node_error"],
    [-28, "node_error"],
    [-32601, "node_error"],
  ])("Bitcoin %i → %s", (code, reason) => {
    expect(bitcoin.reasonFor(code, "")).toBe(reason);
  });

  it.each([
    [-32602, "invalid_argument"],
    [-32600, "invalid_argument"],
    [-32700, "invalid_argument"],
    [-32000, "node_error"],
    [3, "node_error"],
    [-32601, "node_error"],
  ])("Ethereum %i → %s", (code, reason) => {
    expect(ethereum.reasonFor(code, "")).toBe(reason);
    expect(tron.reasonFor(code, "")).toBe(reason);
  });

  it("reads java-tron's HTTP API errors from their Error member and classifies them by message", () => {
    const parse = tron.restErrorIn!({ Error: "class org.tron.core.exception.BadItemException : ... Invalid address" });
    expect(parse).toEqual({ code: 0, message: "class org.tron.core.exception.BadItemException : ... Invalid address" });
    expect(tron.reasonFor(parse!.code, parse!.message)).toBe("invalid_argument");
    expect(tron.reasonFor(0, "class java.lang.IllegalArgumentException : contract does not exist")).toBe("not_found");
    expect(tron.reasonFor(0, "class org.tron.core.exception.ContractExeException : out of time")).toBe("node_error");
    expect(tron.restErrorIn!({ address: "41..." })).toBeUndefined();
    expect(tron.restErrorIn!([])).toBeUndefined();
    expect(tron.restErrorIn!(Object.create({ Error: "inherited" }))).toBeUndefined();
  });

  it("writes each chain's envelope with its own members first", () => {
    expect(bitcoin.envelope.encode("getblockcount", [], 1)).toBe('{"jsonrpc":"1.0","id":1,"method":"getblockcount","params":[]}');
    expect(ethereum.envelope.encode("eth_blockNumber", [], 2)).toBe('{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber","params":[]}');
    expect(tron.jsonRpcPath).toBe("/jsonrpc");
  });
});
