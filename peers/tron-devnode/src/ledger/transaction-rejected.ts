/** Rejections of a broadcast transaction, with java-tron's response codes and messages. */

/** java-tron's `Return.response_code` values that broadcast can answer. */
export type BroadcastCode =
  | "SIGERROR"
  | "CONTRACT_VALIDATE_ERROR"
  | "CONTRACT_EXE_ERROR"
  | "BANDWITH_ERROR"
  | "DUP_TRANSACTION_ERROR"
  | "TAPOS_ERROR"
  | "TOO_BIG_TRANSACTION_ERROR"
  | "TRANSACTION_EXPIRATION_ERROR"
  | "OTHER_ERROR";

/** A rejected transaction: the code and the (plain-text) message java-tron would answer. */
export class TransactionRejected extends Error {
  override readonly name = "TransactionRejected";
  readonly code: BroadcastCode;
  constructor(code: BroadcastCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** An actuator's ContractValidateException. */
export function contractValidateError(message: string): TransactionRejected {
  return new TransactionRejected("CONTRACT_VALIDATE_ERROR", message);
}
