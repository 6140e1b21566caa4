import { describe, expect, it } from "vitest";
import { JsonNumber, parseLosslessJson, stringifyLosslessJson } from "./lossless-json.ts";

describe("lossless JSON", () => {
  it.each([
    ['[{"address":"bcrt1q","amount":0.00000050,"confirmations":3}]', "50 satoshis as bitcoind writes them"],
    ['{"value":21000000.00000000,"big":123456789012345678901234567890,"tiny":1e-400,"neg":-0.0}', "values a double would change"],
    ['{"s":"a\\"b\\\\cé","t":true,"f":false,"n":null,"e":[],"o":{}}', "every other JSON type"],
  ])("writes %s back unchanged (%s)", (text) => {
    expect(stringifyLosslessJson(parseLosslessJson(text))).toBe(text);
  });

  it("keeps each number's exact text", () => {
    const [row] = parseLosslessJson('[{"amount":0.00000050}]') as [{ amount: JsonNumber }];
    expect(row.amount).toBeInstanceOf(JsonNumber);
    expect(row.amount.text).toBe("0.00000050");
    expect(JSON.stringify(JSON.parse('{"amount":0.00000050}'))).toBe('{"amount":5e-7}');
  });

  it("refuses what is not one JSON value", () => {
    for (const text of ["", "[1,", "[1] 2", "{a:1}", "01"]) expect(() => parseLosslessJson(text), text).toThrow(SyntaxError);
  });

  it("keeps a __proto__ member as data, not as a prototype", () => {
    const value = parseLosslessJson('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
