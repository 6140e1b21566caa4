import type { BitcoinNetwork } from "@chaingate/bitcoin";
import type { ChainEntry } from "@chaingate/chain-registry";
import type { FieldErrors } from "@chaingate/errors";
import { normalizeAddress } from "../../domain/validate-address.ts";

/** Validated, normalised, de-duplicated addresses; errors keyed `addresses.<i>`. */
export function normalizeAddresses(
  chain: Pick<ChainEntry, "coin" | "kind">,
  addresses: readonly string[],
  network: BitcoinNetwork,
  errors: FieldErrors,
): string[] {
  const stored = new Set<string>();
  addresses.forEach((address, index) => {
    const normalized = normalizeAddress(chain.kind, address, network);
    if (normalized === null) errors[`addresses.${index}`] = [`The addresses.${index} field must be a valid ${chain.coin} address.`];
    else stored.add(normalized);
  });
  return [...stored];
}
