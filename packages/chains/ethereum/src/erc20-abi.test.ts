import { keccak_256 } from "@noble/hashes/sha3";
import { hex } from "@scure/base";
import { describe, expect, it } from "vitest";
import { ERC20_TRANSFER_SELECTOR, ERC20_TRANSFER_TOPIC } from "./erc20-abi.ts";

const keccak = (signature: string) => hex.encode(keccak_256(new TextEncoder().encode(signature)));

describe("ERC-20 ABI words", () => {
  it("are the keccak-256 of the event and function signatures", () => {
    expect(ERC20_TRANSFER_TOPIC).toBe(keccak("Transfer(address,address,uint256)"));
    expect(ERC20_TRANSFER_SELECTOR).toBe(keccak("transfer(address,uint256)").slice(0, 8));
  });
});
