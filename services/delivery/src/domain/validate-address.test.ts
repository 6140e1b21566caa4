import { describe, expect, it } from "vitest";
import fixtures from "./fixtures/addresses.json" with { type: "json" };
import { normalizeAddress, type BitcoinNetwork } from "./validate-address.ts";
import type { Coin } from "@chaingate/contracts";

describe("normalizeAddress", () => {
  it.each(fixtures.valid)("accepts $coin $form ($network) and stores its matching form", ({ coin, network, input, stored }) => {
    expect(normalizeAddress(coin as Coin, input, network as BitcoinNetwork)).toBe(stored);
  });
  it.each(fixtures.invalid)("refuses $coin $input ($why)", ({ coin, network, input }) => {
    expect(normalizeAddress(coin as Coin, input, network as BitcoinNetwork)).toBeNull();
  });
});
