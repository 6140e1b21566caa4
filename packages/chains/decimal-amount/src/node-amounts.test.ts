import { describe, expect, test } from "vitest";
import { InvalidAmountError, decimalToBaseUnits, formatUnits, hexToBaseUnits, integerToBaseUnits } from "./decimal-amount.ts";

describe("amounts as nodes write them", () => {
  test.each([
    ["0.00000050", 8, "50"],
    ["50.00000000", 8, "5000000000"],
    ["20999999.97690000", 8, "2099999997690000"],
    ["0", 8, "0"],
    ["1.5", 8, "150000000"],
  ])("node text %s with %i decimals is %s base units", (text, decimals, raw) => {
    expect(decimalToBaseUnits(text, decimals)).toBe(raw);
  });

  test.each([
    ["50", 8, "0.0000005"],
    ["5000000000", 8, "50"],
    ["150000000", 8, "1.5"],
    ["1000000000000000001", 18, "1.000000000000000001"],
    ["0", 6, "0"],
    ["7", 0, "7"],
  ])("%s base units with %i decimals read %s", (raw, decimals, text) => {
    expect(formatUnits(raw, decimals)).toBe(text);
  });

  test("exponents, signs and excess precision are refused, not rounded", () => {
    expect(() => decimalToBaseUnits("5e-7", 8)).toThrow(/plain/);
    expect(() => decimalToBaseUnits("-1", 8)).toThrow(/plain/);
    expect(() => decimalToBaseUnits("0.000000001", 8)).toThrow(/more than 8/);
    expect(() => decimalToBaseUnits("1e3", 8)).toThrow(InvalidAmountError);
    expect(() => integerToBaseUnits("-5")).toThrow(/non-negative integer/);
  });

  test("hex quantities and uint256 words beyond 2^53 stay exact", () => {
    expect(hexToBaseUnits("0xde0b6b3a7640000")).toBe("1000000000000000000");
    expect(hexToBaseUnits("00000000000000000000000000000000000000000000000000000000ffffffffffffffff")).toBe("18446744073709551615");
    expect(hexToBaseUnits("0x")).toBe("0");
    expect(integerToBaseUnits("100000000000000001")).toBe("100000000000000001");
    expect(integerToBaseUnits(1_000_000)).toBe("1000000");
  });
});
