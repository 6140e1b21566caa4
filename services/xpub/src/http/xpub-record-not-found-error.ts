/** An xpub record id that the caller's account does not own. */
import { ChaingateError } from "@chaingate/errors";

/**
 * Unknown id and another account's id get this same error, so a caller cannot learn that another
 * account's record exists.
 */
export class XpubRecordNotFoundError extends ChaingateError {
  override name = "XpubRecordNotFoundError" as const;
  constructor(id: string) {
    super("xpub_record_not_found", `No xpub record with id ${id} was found.`);
  }
}
