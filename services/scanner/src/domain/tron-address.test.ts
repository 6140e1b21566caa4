import { describe, expect, test } from "vitest";
import { tronAddressBody, tronAddressFromBody } from "./tron-address.ts";

// Mainnet USDT (shared/research/tron-node-api.md §11).
const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";

describe("Tron addresses", () => {
  test("Base58Check and hex forms map to the same body and back", () => {
    expect(tronAddressBody(USDT)).toBe(USDT_HEX.slice(2));
    expect(tronAddressBody(USDT_HEX)).toBe(USDT_HEX.slice(2));
    expect(tronAddressFromBody(USDT_HEX.slice(2))).toBe(USDT);
    expect(tronAddressFromBody(USDT_HEX)).toBe(USDT);
  });

  test("a mistyped address (bad checksum) or a non-Tron string is no key", () => {
    expect(tronAddressBody("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toBeUndefined();
    expect(tronAddressBody("bc1qnotatronaddress")).toBeUndefined();
  });
});
