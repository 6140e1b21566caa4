import { keccak_256 } from "@noble/hashes/sha3";
import { hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import { decodeTransferCall, ERC20_TRANSFER_SELECTOR, ERC20_TRANSFER_TOPIC } from "./erc20-abi.ts";

const keccak = (signature: string) => hex.encode(keccak_256(new TextEncoder().encode(signature)));

describe("ERC-20 ABI words", () => {
  it("are the keccak-256 of the event and function signatures", () => {
    expect(ERC20_TRANSFER_TOPIC).toBe(keccak("Transfer(address,address,uint256)"));
    expect(ERC20_TRANSFER_SELECTOR).toBe(keccak("transfer(address,uint256)").slice(0, 8));
  });
});

describe("decodeTransferCall", () => {
  const to = "AbCdEf0123456789aBcDeF0123456789AbCdEf01";
  const word = (hexDigits: string) => hexDigits.padStart(64, "0");
  const call = `${ERC20_TRANSFER_SELECTOR}${word(to)}${word("3039")}`;

  it("reads the recipient (lower case) and the amount word, with or without 0x", () => {
    const decoded = { recipient: to.toLowerCase(), amountHex: word("3039") };
    expect(decodeTransferCall(`0x${call}`)).toEqual(decoded);
    expect(decodeTransferCall(call.toUpperCase().replace("A9059CBB", "a9059cbb"))).toEqual({
      ...decoded,
      amountHex: word("3039").toUpperCase(),
    });
  });

  it("refuses another selector and data too short for both words", () => {
    expect(decodeTransferCall(`0x23b872dd${word(to)}${word("1")}`)).toBeUndefined();
    expect(decodeTransferCall(`0x${call.slice(0, -2)}`)).toBeUndefined();
    expect(decodeTransferCall("0x")).toBeUndefined();
  });
});
