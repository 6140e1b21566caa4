/**
 * Ethereum receive addresses below a registered BIP44 account key: m/44'/60'/account'/0/index,
 * the address being the last 20 bytes of keccak-256 of the uncompressed public key, written with
 * its EIP-55 mixed-case checksum.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
import { HDKey } from "@scure/bip32";
import { AddressIndexOutOfRangeError, MAX_ADDRESS_INDEX, RECEIVE_CHAIN } from "../derive-address.ts";
import type { EthAccountXpub } from "./parse-eth-account-xpub.ts";

/** BIP44 purpose and Ethereum's SLIP-44 coin type. */
const PURPOSE = 44;
const COIN_TYPE = 60;

export interface DerivedEthAddress {
  /** EIP-55 checksummed. */
  address: string;
  /** The same address in lower case: what webhook matching on Ethereum compares. */
  address_lowercase: string;
  index: number;
  path: string;
}

export function deriveEthAddress(account: EthAccountXpub, index: number): DerivedEthAddress {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX) throw new AddressIndexOutOfRangeError(index);
  const child = new HDKey({ publicKey: account.publicKey, chainCode: account.chainCode }).deriveChild(RECEIVE_CHAIN).deriveChild(index);
  const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey!).toRawBytes(false);
  const lower = Buffer.from(keccak_256(uncompressed.subarray(1)).subarray(12)).toString("hex");
  return {
    address: toChecksumAddress(lower),
    address_lowercase: `0x${lower}`,
    index,
    path: `m/${PURPOSE}'/${COIN_TYPE}'/${account.accountIndex}'/${RECEIVE_CHAIN}/${index}`,
  };
}

/** EIP-55: a hex letter is upper case where the matching nibble of keccak-256(lower-case hex) is 8 or more. */
export function toChecksumAddress(lowerHex: string): string {
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lowerHex))).toString("hex");
  let out = "0x";
  for (let i = 0; i < lowerHex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? lowerHex[i]!.toUpperCase() : lowerHex[i]!;
  return out;
}
