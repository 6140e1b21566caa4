import { describe, expect, it } from "vitest";
import vectors from "./fixtures/amounts.json" with { type: "json" };
import { formatUnits, toBaseUnits } from "./decimal-amount.ts";

describe("exact amount conversions", () => {
  it.each(vectors.toBaseUnits)("$amount with $decimals decimals is $units base units", ({ amount, decimals, units }) => {
    expect(toBaseUnits(amount, decimals)).toEqual({ ok: true, value: BigInt(units) });
  });

  it.each(vectors.refused)("refuses $amount ($decimals decimals) as $problem", ({ amount, decimals, problem }) => {
    expect(toBaseUnits(amount, decimals)).toEqual({ ok: false, problem });
  });

  it.each(vectors.formatUnits)("formats $units with $decimals decimals as $amount", ({ units, decimals, amount }) => {
    expect(formatUnits(BigInt(units), decimals)).toBe(amount);
    // And back, exactly (zero aside, which toBaseUnits refuses as no amount).
    if (units !== "0") expect(toBaseUnits(amount, decimals)).toEqual({ ok: true, value: BigInt(units) });
  });
});
