/** The key an operator pastes into `xpub-admin keys find`: a Bitcoin zpub or an Ethereum xpub. */
import { DEFAULT_BITCOIN_NETWORK } from "@chaingate/bitcoin";
import { ChaingateError } from "@chaingate/errors";
import { bitcoinScheme, ethereumScheme } from "../domain/key-scheme.ts";
import { XpubRejectedError } from "../domain/xpub-rejection-errors.ts";
import { keyMaterialOf } from "../infra/xpub-repository.ts";

/** Neither chain's parser accepts the text; the message carries both reasons. */
export class UnreadableAccountKeyError extends ChaingateError {
  override name = "UnreadableAccountKeyError" as const;
  constructor(bitcoinReason: string, ethereumReason: string) {
    super(
      "unreadable_account_key",
      `The key is neither a Bitcoin BIP84 zpub (${bitcoinReason}) nor an Ethereum BIP44 xpub (${ethereumReason}).`,
    );
  }
}

/**
 * What records of the key are compared by (public key + chain code, hex), with the service's own
 * parsers, so the operator finds exactly what a registration would have collided with.
 * @throws UnreadableAccountKeyError when no parser accepts it (a private key among them).
 */
export function readAccountKeyMaterial(text: string): string {
  const reasons: string[] = [];
  // The network only picks the addresses' prefix, never which keys are accepted.
  for (const scheme of [bitcoinScheme(DEFAULT_BITCOIN_NETWORK), ethereumScheme]) {
    try {
      return keyMaterialOf(scheme.parse(text));
    } catch (error) {
      if (!(error instanceof XpubRejectedError)) throw error;
      reasons.push(error.message);
    }
  }
  throw new UnreadableAccountKeyError(reasons[0]!, reasons[1]!);
}
