import { describe, expect, it } from "vitest";
import vectors from "./fixtures/amounts.json" with { type: "json" };
import { formatUnits, toBaseUnits, toPositiveBaseUnits } from "./decimal-amount.ts";

describe("exact amount conversions", () => {
  it.each(vectors.toBaseUnits)("$amount with $decimals decimals is $units base units", ({ amount, decimals, units }) => {
    expect(toPositiveBaseUnits(amount, decimals)).toEqual({ ok: true, value: BigInt(units) });
    expect(toBaseUnits(amount, decimals)).toEqual({ ok: true, value: BigInt(units) });
  });

  it.each(vectors.refused)("refuses $amount ($decimals decimals) as $problem", ({ amount, decimals, problem }) => {
    expect(toPositiveBaseUnits(amount, decimals)).toEqual({ ok: false, problem });
  });

  it("reads zero as an amount where zero is allowed (a node's zero-value output)", () => {
    expect(toBaseUnits("0.000000", 6)).toEqual({ ok: true, value: 0n });
  });

  it.each(vectors.formatUnits)("formats $units with $decimals decimals as $amount", ({ units, decimals, amount }) => {
    expect(formatUnits(BigInt(units), decimals)).toBe(amount);
    expect(formatUnits(units, decimals)).toBe(amount);
    // And back, exactly.
    expect(toBaseUnits(amount, decimals)).toEqual({ ok: true, value: BigInt(units) });
  });

  it("formats a negative difference with its sign", () => {
    expect(formatUnits(-1500000n, 6)).toBe("-1.5");
  });
});
