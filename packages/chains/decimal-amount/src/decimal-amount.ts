/**
 * Exact conversions between whole-unit decimal text ("0.1" TRX, "0.00000050" BTC, "12.5" USDT) and
 * integer base units (sun, satoshi, wei, token units), in bigint: no float ever touches an amount
 * (0.1 + 0.2 is not 0.3; a wei amount has 18 digits past the point).
 */
import { ChaingateError } from "@chaingate/errors";

/** A node answered an amount that is no plain non-negative number (a node fault, never a client's). */
export class InvalidAmountError extends ChaingateError {
  override name = "InvalidAmountError";
  constructor(text: string, reason: string) {
    super("invalid_amount", `amount ${JSON.stringify(text)} ${reason}`, { details: { text } });
  }
}

/** Why an amount was refused. */
export type AmountProblem = "not_a_decimal" | "too_many_decimals" | "not_positive";

export type AmountResult = { ok: true; value: bigint } | { ok: false; problem: AmountProblem };

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * `"1.5"`, 6 decimals → 1500000n; zero allowed. Accepts plain decimal notation only (no sign,
 * exponent or spaces); more fractional digits than `decimals` is refused rather than rounded.
 */
export function toBaseUnits(text: string, decimals: number): AmountResult {
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, problem: "not_a_decimal" };
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) return { ok: false, problem: "too_many_decimals" };
  return { ok: true, value: BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0") };
}

/** {@link toBaseUnits} for amounts a client asks to move: zero is refused too (`not_positive`). */
export function toPositiveBaseUnits(text: string, decimals: number): AmountResult {
  const converted = toBaseUnits(text, decimals);
  return converted.ok && converted.value <= 0n ? { ok: false, problem: "not_positive" } : converted;
}

const NODE_AMOUNT_REASONS: Record<AmountProblem, (decimals: number) => string> = {
  not_a_decimal: () => "is not a plain non-negative decimal",
  too_many_decimals: (decimals) => `has more than ${decimals} decimals`,
  not_positive: () => "is not positive",
};

/** A node's decimal text ("0.00000050", 8 decimals) → base units as text ("50"); throws {@link InvalidAmountError}. */
export function decimalToBaseUnits(text: string, decimals: number): string {
  const converted = toBaseUnits(text, decimals);
  if (!converted.ok) throw new InvalidAmountError(text, NODE_AMOUNT_REASONS[converted.problem](decimals));
  return converted.value.toString();
}

/** 1500000n (or "1500000"), 6 decimals → "1.5": the exact scaled value, trailing fractional zeros dropped. */
export function formatUnits(raw: bigint | string, decimals: number): string {
  const units = typeof raw === "bigint" ? raw : BigInt(raw);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** A 0x-quantity or a bare hex word (an ABI uint256) → decimal base units. */
export function hexToBaseUnits(hex: string): string {
  const body = hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex;
  if (body === "") return "0";
  return BigInt(`0x${body}`).toString(10);
}

/** A JSON integer read as a number (exact below 2^53) or as its text (the adapter quotes longer ones). */
export function integerToBaseUnits(value: number | string | undefined): string {
  if (value === undefined) return "0";
  const text = typeof value === "number" ? (Number.isSafeInteger(value) ? String(value) : BigInt(value).toString()) : value;
  if (!/^\d+$/.test(text)) throw new InvalidAmountError(String(value), "is not a non-negative integer");
  return text.replace(/^0+(?=\d)/, "");
}
