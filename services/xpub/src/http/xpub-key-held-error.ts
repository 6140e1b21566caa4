/** A key that another account registered first (409). */
import { ChaingateError } from "@chaingate/errors";

/**
 * One key, one account: two accounts issuing from one key would hand out the same addresses, and
 * one payment would notify both. The message never says which account holds the key.
 */
export class XpubKeyHeldError extends ChaingateError {
  override name = "XpubKeyHeldError" as const;
  /** The request field the conflict is reported under (`xpub` on registration, `id` on issue). */
  readonly field: string;
  constructor(field: string) {
    super(
      "xpub_key_held_by_another_account",
      "This key is already registered by another account; a key can be registered by one account only, so that one payment never notifies two accounts.",
    );
    this.field = field;
  }
}
