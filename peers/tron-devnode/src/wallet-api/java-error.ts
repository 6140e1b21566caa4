/** How the servlets print exceptions: `Util.processError`'s `{"Error": …}` and the trigger servlets' `result` bodies. */
import { utf8ToHex } from "../hex.ts";
import { TransactionRejected } from "../ledger/transaction-rejected.ts";
import { JavaNullPointer, JsonParseError, jsonValuePosition } from "../transaction-json.ts";
import type { WalletRequest } from "./wallet-request.ts";

export const JAVA_EXCEPTION = {
  contractValidate: "class org.tron.core.exception.ContractValidateException",
  parse: "class org.tron.core.services.http.JsonFormat$ParseException",
  nullPointer: "class java.lang.NullPointerException",
} as const;

/** The body java-tron's `Util.processError` prints. */
export function errorBody(javaClass: string, message: string): { Error: string } {
  return { Error: `${javaClass} : ${message}` };
}

/** The `Util.processError` body of a request-parsing or validation exception; rethrows anything else. */
export function fromJavaError(error: unknown, request: WalletRequest): { Error: string } {
  if (error instanceof JavaNullPointer) return errorBody(JAVA_EXCEPTION.nullPointer, "null");
  if (error instanceof JsonParseError) {
    // A GET servlet builds `{"<field>":<value>}` from its parameter before JsonFormat parses it.
    const text =
      error.field && request.method === "GET" ? JSON.stringify({ [error.field]: request.params[error.field] }) : request.jsonText;
    const position = error.field && text !== undefined ? jsonValuePosition(text, error.field) : undefined;
    return errorBody(JAVA_EXCEPTION.parse, position ? `${position}: ${error.message}` : error.message);
  }
  if (error instanceof TransactionRejected) return errorBody(JAVA_EXCEPTION.contractValidate, error.message);
  throw error;
}

/** A message as java-tron prints it: plain with `visible`, else the hex of its UTF-8 bytes. */
export function visibleText(message: string, visible: boolean): string {
  return visible ? message : utf8ToHex(message);
}

/** The trigger servlets' catch-all: `OTHER_ERROR` with `e.getClass() + " : " + message` (double quotes made single). */
function otherError(error: unknown, request: WalletRequest): { result: { code: "OTHER_ERROR"; message: string } } {
  const body = fromJavaError(error, request).Error.replace(/"/g, "'");
  return { result: { code: "OTHER_ERROR", message: visibleText(body, request.visible) } };
}

/** The trigger servlets' answer to an exception: ContractValidateException as CONTRACT_VALIDATE_ERROR, the rest OTHER_ERROR. */
export function triggerError(error: unknown, request: WalletRequest): { result: { code: string; message: string } } {
  if (error instanceof TransactionRejected) {
    return { result: { code: "CONTRACT_VALIDATE_ERROR", message: visibleText(error.message, request.visible) } };
  }
  return otherError(error, request);
}
