/**
 * Exact amounts as strings: the node's decimal text to base units and back, never through a
 * double (0.1 + 0.2 is not 0.3; a wei amount has 18 digits past the point).
 */
import { ChaingateError } from "@chaingate/errors";

export class InvalidAmountError extends ChaingateError {
  override name = "InvalidAmountError";
  constructor(text: string, reason: string) {
    super("invalid_amount", `amount ${JSON.stringify(text)} ${reason}`, { details: { text } });
  }
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "0.00000050" with 8 decimals → "50". Refuses exponents, signs and more fraction digits than `decimals`. */
export function decimalToBaseUnits(text: string, decimals: number): string {
  const parts = DECIMAL.exec(text);
  if (!parts) throw new InvalidAmountError(text, "is not a plain non-negative decimal");
  const fraction = (parts[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) throw new InvalidAmountError(text, `has more than ${decimals} decimals`);
  const digits = (parts[1] + fraction.padEnd(decimals, "0")).replace(/^0+(?=\d)/, "");
  return digits;
}

/** "50" base units with 8 decimals → "0.0000005"; trailing zeros of the fraction dropped ("1.5", "2"). */
export function baseUnitsToDecimal(raw: string, decimals: number): string {
  const digits = raw.replace(/^0+(?=\d)/, "");
  if (decimals === 0) return digits;
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
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
