/**
 * Tron addresses: Base58Check of 0x41 ‖ 20 bytes (`T…`) for people, hex `41…` in blocks and 20-byte
 * hex (no 41) in log topics and log addresses. The watch index keys Tron addresses by their
 * 40-hex-digit body, so a block is matched without encoding a single address.
 */
import { base58CheckDecode, base58CheckEncode } from "./base58check.ts";

const TRON_PREFIX = 0x41;

/** "T…" → the 40 lower-case hex digits of its body; undefined when it is no Tron address. */
export function tronAddressBody(address: string): string | undefined {
  if (/^(0x|41)?[0-9a-fA-F]{40}$/.test(address)) return address.slice(-40).toLowerCase();
  const payload = base58CheckDecode(address);
  if (!payload || payload.length !== 21 || payload[0] !== TRON_PREFIX) return undefined;
  return payload.subarray(1).toString("hex");
}

/** 40 hex digits (or 41 + 40) → "T…". */
export function tronAddressFromBody(hex: string): string {
  return base58CheckEncode(Buffer.from(`41${hex.slice(-40)}`, "hex"));
}
