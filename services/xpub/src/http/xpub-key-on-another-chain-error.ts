/** A key the same account registered for another EVM chain (409). */
import { ChaingateError } from "@chaingate/errors";

/**
 * Every EVM chain derives the same addresses from one key (m/44'/60'/account'/0/i): a second
 * record on another chain would count its own indexes and hand an address already given to one
 * customer on the first chain to another customer on this one. The account's own record is named.
 */
export class XpubKeyOnAnotherChainError extends ChaingateError {
  override name = "XpubKeyOnAnotherChainError" as const;
  constructor(chain: string, otherChain: string, recordId: number) {
    super(
      "xpub_key_on_another_chain",
      `This extended key is already registered for ${otherChain} (record ${recordId}), and every EVM chain derives the same addresses from it: a record for ${chain} too would hand out addresses already issued. Register another account key for ${chain} (for example m/44'/60'/1').`,
    );
  }
}
