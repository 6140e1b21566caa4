/**
 * BIP84 address derivation below a registered account key: P2WPKH (BIP141) bech32 (BIP173)
 * addresses at m/84'/0'/account'/change/index.
 */
import { ChaingateError } from "@chaingate/errors";
import { HDKey } from "@scure/bip32";
import { p2wpkhAddress } from "@chaingate/bitcoin";
import type { AccountZpub } from "./parse-account-zpub.ts";

/** BIP32 non-hardened indexes are 0 .. 2^31-1; a public key cannot derive hardened children. */
export const MAX_ADDRESS_INDEX = 0x7fffffff;
/** BIP44 `change` level: 0 = external (receive) chain, the only one the API issues from. */
export const RECEIVE_CHAIN = 0;
export const CHANGE_CHAIN = 1;
/** BIP84 purpose and Bitcoin coin type; neither is recorded in a serialized key, so they are fixed. */
const PURPOSE = 84;
const COIN_TYPE = 0;

/** An address issued from an account key (the spec's issue response: address, index, path). */
export interface DerivedAddress {
  address: string;
  index: number;
  /**
   * `m/84'/0'/{account}'/{chain}/{index}`. The account segment is the key's own child number
   * (without the hardened bit), so it reads `m/84'/0'/0'/0/{index}` for the usual first account
   * and stays truthful for a wallet's second account; 84' and 0' are assumed (BIP84, Bitcoin).
   */
  path: string;
}

/** An index outside 0 .. 2^31-1 (caller bug or the per-key limit not enforced). */
export class AddressIndexOutOfRangeError extends ChaingateError {
  override name = "AddressIndexOutOfRangeError" as const;
  constructor(index: number) {
    super("xpub_index_out_of_range", `Address index ${index} is outside 0..${MAX_ADDRESS_INDEX} (BIP32 non-hardened range).`, {
      details: { index },
    });
  }
}

/** Derives the receive address at `0/{index}` below the account key (BIP84 external chain). */
export function deriveAddress(account: AccountZpub, index: number): DerivedAddress {
  return deriveAddressOnChain(account, RECEIVE_CHAIN, index);
}

/**
 * Derives the P2WPKH address at `{chain}/{index}` below the account key, encoded with the hrp of
 * the account's network. Exposed for the change chain only so the BIP84 change vector is testable.
 */
export function deriveAddressOnChain(
  account: AccountZpub,
  chain: typeof RECEIVE_CHAIN | typeof CHANGE_CHAIN,
  index: number,
): DerivedAddress {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX) throw new AddressIndexOutOfRangeError(index);
  // Derivation may in theory (p < 2^-127) hit an invalid child; HDKey then throws rather than
  // returning a wrong key, which is the safe failure for an address issuer.
  const child = new HDKey({ publicKey: account.publicKey, chainCode: account.chainCode }).deriveChild(chain).deriveChild(index);
  const address = p2wpkhAddress(child.publicKey!, account.network);
  return { address, index, path: `m/${PURPOSE}'/${COIN_TYPE}'/${account.accountIndex}'/${chain}/${index}` };
}
