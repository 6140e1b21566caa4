/** An operator action that cannot be done (no such account, no free key prefix). */
export class AccountAdminError extends Error {
  override name = "AccountAdminError";
}
