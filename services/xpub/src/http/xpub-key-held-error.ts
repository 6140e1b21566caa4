/** A key that another account holds (409). */
import { ChaingateError } from "@chaingate/errors";

/** Registering a key another account holds: says it is taken and who can help, never by whom. */
export const KEY_ALREADY_REGISTERED_MESSAGE =
  "This extended key cannot be registered: it is already registered. If it is yours, ask the operator to move it to your account.";
/** Issuing from a record migration 0004 flagged: its key is held by another account's older record. */
export const RECORD_ISSUES_NOTHING_MESSAGE =
  "This record issues no addresses: its key is registered under another record. If the key is yours, ask the operator.";

/**
 * One key, one account: two accounts issuing from one key would hand out the same addresses, and
 * one payment would notify both. The refusal cannot hide that the key is taken (see docs/api.md,
 * "One key, one account"), but it names neither the holder nor that it is another account; the
 * operator resolves a wrong holder with `xpub-admin keys move`.
 */
export class XpubKeyHeldError extends ChaingateError {
  override name = "XpubKeyHeldError" as const;
  /** The request field the conflict is reported under (`xpub` on registration, `id` on issue). */
  readonly field: "xpub" | "id";
  constructor(field: "xpub" | "id") {
    super("xpub_key_held_by_another_account", field === "xpub" ? KEY_ALREADY_REGISTERED_MESSAGE : RECORD_ISSUES_NOTHING_MESSAGE);
    this.field = field;
  }
}
