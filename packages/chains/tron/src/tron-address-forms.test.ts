import { describe, expect, test } from "vitest";
import { parseTronAddress, parseTronBase58, tronAddressFromEvmHex, tronEvmHex } from "./tron-address.ts";

// Mainnet USDT (shared/research/tron-node-api.md §11).
const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";

describe("Tron address forms in blocks and webhooks", () => {
  test("Base58Check and hex forms map to the same 20-byte EVM form and back", () => {
    expect(tronEvmHex(parseTronAddress(USDT)!)).toBe(USDT_HEX.slice(2));
    expect(tronEvmHex(parseTronAddress(USDT_HEX)!)).toBe(USDT_HEX.slice(2));
    expect(tronAddressFromEvmHex(USDT_HEX.slice(2)).base58).toBe(USDT);
    expect(tronAddressFromEvmHex(USDT_HEX).base58).toBe(USDT);
    expect(tronAddressFromEvmHex(`0x${USDT_HEX.slice(2).toUpperCase()}`).base58).toBe(USDT);
  });

  test("a mistyped address (bad checksum) or a non-Tron string is no address", () => {
    expect(parseTronAddress("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toBeUndefined();
    expect(parseTronAddress("bc1qnotatronaddress")).toBeUndefined();
  });

  // The scanner's copy read these as Tron addresses; the trx-proxy's refused them. A webhook or a
  // whitelist entry names a Tron address as T… or 41…: 20 bytes alone could be any EVM chain's.
  test("20 bytes without the 41 prefix are no Tron address", () => {
    expect(parseTronAddress(USDT_HEX.slice(2))).toBeUndefined();
    expect(parseTronAddress(`0x${USDT_HEX.slice(2)}`)).toBeUndefined();
  });

  test("text of any other length than 34 is refused before it is decoded", () => {
    expect(parseTronAddress(`1${USDT}`)).toBeUndefined();
    expect(parseTronAddress("T".repeat(100_000))).toBeUndefined();
  });

  test("the Base58Check-only reader refuses the hex form", () => {
    expect(parseTronBase58(USDT)).toEqual({ base58: USDT, hex: USDT_HEX });
    expect(parseTronBase58(USDT_HEX)).toBeUndefined();
  });

  test("text that is no 20-byte form is a caller's bug, not an address", () => {
    expect(() => tronAddressFromEvmHex("0xabc")).toThrow(/20-byte/);
  });
});
