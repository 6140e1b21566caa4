/**
 * Ethereum receive addresses below a registered BIP44 account key: m/44'/60'/account'/0/index,
 * written with their EIP-55 mixed-case checksum (the encoding is @chaingate/ethereum's).
 */
import { ethereumAddressFromPublicKey, toChecksumAddress } from "@chaingate/ethereum";
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
  const lower = ethereumAddressFromPublicKey(child.publicKey!);
  return {
    address: toChecksumAddress(lower),
    address_lowercase: lower,
    index,
    path: `m/${PURPOSE}'/${COIN_TYPE}'/${account.accountIndex}'/${RECEIVE_CHAIN}/${index}`,
  };
}
