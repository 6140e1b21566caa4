/**
 * Whose an issued address is when the registry records it, for a key the operator may have moved
 * (`key.moved`, issue #27). A move takes the whole record to the new account, every address it
 * issued included; an `address.issued` carries the account at its publication, which a move made
 * after the publication but applied before the event was consumed has changed since.
 */

/** The newest move the registry applied to a key (delivery's `key_holders` row). */
export interface KeyHolder {
  account_id: number;
  /** The record's counter at that move: every index below it was issued before the move. */
  next_index: number;
}

/**
 * The holder's account for an address issued before the newest known move (it moved with the
 * record); otherwise the account the event carries, which is then the holder's or that of a move
 * not applied yet (published after the address was issued, so never an earlier holder's).
 */
export function ownerOfIssuedAddress(holder: KeyHolder | undefined, issued: { account_id: number; index: number }): number {
  return holder !== undefined && issued.index < holder.next_index ? holder.account_id : issued.account_id;
}
