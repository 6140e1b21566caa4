import { ChaingateError } from "@chaingate/errors";

/** An operator action that cannot be done (no such account, no free key prefix): the CLI prints the message. */
export class AccountAdminError extends ChaingateError {
  override name = "AccountAdminError";
  constructor(message: string) {
    super("account_admin_refused", message, { retryable: false });
  }
}
