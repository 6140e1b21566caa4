/**
 * Exact conversions between whole-unit decimal strings ("0.1" TRX, "12.5" USDT) and integer base
 * units (sun, token units), in bigint: no float ever touches an amount.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Why an amount was refused. */
export type AmountProblem = "not_a_decimal" | "too_many_decimals" | "not_positive";

/**
 * `"1.5"`, 6 decimals → 1500000n. Accepts plain decimal notation only (no sign, exponent or
 * spaces); more fractional digits than `decimals` is refused rather than rounded.
 */
export function toBaseUnits(amount: string, decimals: number): { ok: true; value: bigint } | { ok: false; problem: AmountProblem } {
  const match = DECIMAL.exec(amount);
  if (!match) return { ok: false, problem: "not_a_decimal" };
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) return { ok: false, problem: "too_many_decimals" };
  const value = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
  if (value <= 0n) return { ok: false, problem: "not_positive" };
  return { ok: true, value };
}

/** 1500000n, 6 decimals → "1.5": the exact scaled value, trailing fractional zeros dropped. */
export function formatUnits(raw: bigint, decimals: number): string {
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}
