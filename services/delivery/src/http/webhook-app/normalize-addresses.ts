import type { BitcoinNetwork } from "@chaingate/bitcoin";
import type { Coin } from "@chaingate/contracts";
import type { FieldErrors } from "@chaingate/errors";
import { normalizeAddress } from "../../domain/validate-address.ts";

/** Validated, normalised, de-duplicated addresses; errors keyed `addresses.<i>`. */
export function normalizeAddresses(coin: Coin, addresses: readonly string[], network: BitcoinNetwork, errors: FieldErrors): string[] {
  const stored = new Set<string>();
  addresses.forEach((address, index) => {
    const normalized = normalizeAddress(coin, address, network);
    if (normalized === null) errors[`addresses.${index}`] = [`The addresses.${index} field must be a valid ${coin} address.`];
    else stored.add(normalized);
  });
  return [...stored];
}
