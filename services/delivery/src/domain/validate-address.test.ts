import { describe, expect, it } from "vitest";
import type { BitcoinNetwork } from "@chaingate/bitcoin";
import type { ChainKind } from "@chaingate/chain-registry";
import { normalizeAddress } from "./validate-address.ts";

// Each chain's vectors live beside its package; these check that a kind of chain picks its rule.
describe("normalizeAddress", () => {
  it.each([
    ["bitcoin", "mainnet", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"],
    ["bitcoin", "litecoin-regtest", "rltc1qcr8te4kr609gcawutmrza0j4xv80jy8z8dz7lc", "rltc1qcr8te4kr609gcawutmrza0j4xv80jy8z8dz7lc"],
    ["evm", "mainnet", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"],
    ["tron", "mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
  ])("accepts %s %s (%s) and stores %s", (kind, network, input, stored) => {
    expect(normalizeAddress(kind as ChainKind, input, network as BitcoinNetwork)).toBe(stored);
  });

  it.each([
    ["bitcoin", "litecoin-regtest", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "a mainnet form on regtest"],
    ["bitcoin", "mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "a Tron address"],
    ["evm", "mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "a Tron address"],
    ["tron", "mainnet", "41a614f803b6fd780986a42c78ec9c7f77e6ded13c", "the hex form (webhooks take T… only)"],
    ["tron", "mainnet", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "a Bitcoin address (version 0x00)"],
    ["tron", "mainnet", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "an Ethereum address"],
  ])("refuses %s %s %s (%s)", (kind, network, input) => {
    expect(normalizeAddress(kind as ChainKind, input, network as BitcoinNetwork)).toBeNull();
  });
});
