/**
 * java-tron's JSON form of transactions (`Util.printTransactionToJSON` / `Util.packTransaction`):
 * bytes as hex, addresses as 41-hex or Base58 and `asset_name` as hex or text depending on `visible`,
 * default values omitted.
 */
import { addressToBase58, parseAddress } from "./address.ts";
import { encodeTransactionRaw, transactionId } from "./encode-transaction.ts";
import { parseHex, toHex } from "./hex.ts";
import { CONTRACT_TYPE_NUMBERS } from "./transaction.ts";
import type { ContractTypeName, Transaction, TransactionContract, TransactionRaw } from "./transaction.ts";

/** A JSON object as parsed from a request. */
export type JsonObject = Record<string, unknown>;

/** Thrown when request JSON cannot be turned into a message; the message mimics JsonFormat's. */
export class JsonParseError extends Error {
  override readonly name: string = "JsonParseError";
  /** The request field whose value failed, when known (for JsonFormat's "line:column: " prefix). */
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.field = field;
  }
}

/**
 * JsonFormat's `line:column` (1-based) of the value of `field` in the request's JSON text: where its tokenizer
 * stands when it refuses that value. `undefined` when the field is not found.
 */
export function jsonValuePosition(jsonText: string, field: string): string | undefined {
  const match = new RegExp(`"${field.replace(/[^\w]/g, "\\$&")}"\\s*:\\s*`).exec(jsonText);
  if (!match) return undefined;
  const index = match.index + match[0].length;
  const before = jsonText.slice(0, index);
  const line = before.split("\n").length;
  return `${line}:${index - (before.lastIndexOf("\n") + 1) + 1}`;
}

/** Input java-tron would accept but the devnode cannot model: answered with a ParseException body, never dropped. */
export class DevnodeLimitation extends JsonParseError {
  override readonly name = "DevnodeLimitation";
}

/** `Util.packTransaction` returned null: the servlet then fails with a NullPointerException. */
export class TransactionNotPacked extends Error {
  override readonly name = "TransactionNotPacked";
}

/** java-tron's `ContractType` names (Tron.proto) beyond the three the devnode executes. */
const JAVA_TRON_ONLY_CONTRACT_TYPES = new Set([
  "AccountCreateContract",
  "VoteAssetContract",
  "VoteWitnessContract",
  "WitnessCreateContract",
  "AssetIssueContract",
  "WitnessUpdateContract",
  "ParticipateAssetIssueContract",
  "AccountUpdateContract",
  "FreezeBalanceContract",
  "UnfreezeBalanceContract",
  "WithdrawBalanceContract",
  "UnfreezeAssetContract",
  "UpdateAssetContract",
  "ProposalCreateContract",
  "ProposalApproveContract",
  "ProposalDeleteContract",
  "SetAccountIdContract",
  "CustomContract",
  "CreateSmartContract",
  "GetContract",
  "UpdateSettingContract",
  "ExchangeCreateContract",
  "ExchangeInjectContract",
  "ExchangeWithdrawContract",
  "ExchangeTransactionContract",
  "UpdateEnergyLimitContract",
  "AccountPermissionUpdateContract",
  "ClearABIContract",
  "UpdateBrokerageContract",
  "ShieldedTransferContract",
  "MarketSellAssetContract",
  "MarketCancelOrderContract",
  "FreezeBalanceV2Contract",
  "UnfreezeBalanceV2Contract",
  "WithdrawExpireUnfreezeContract",
  "DelegateResourceContract",
  "UnDelegateResourceContract",
  "CancelAllUnfreezeV2Contract",
]);

const INT64_TEXT = /^-?\d+$/;

/** Parses an int64 field (JSON number or decimal string); absent means 0. Refuses values JS cannot hold exactly. */
export function parseInt64(value: unknown, field: string): number {
  if (value === undefined || value === null) return 0;
  const number = typeof value === "string" && INT64_TEXT.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number))
    throw new JsonParseError(`Not an int64 value for field ${field}: ${JSON.stringify(value)}`);
  if (!Number.isSafeInteger(number))
    throw new DevnodeLimitation(`Not an int64 value the devnode can hold exactly for field ${field}: ${JSON.stringify(value)}`);
  return number;
}

/** Parses a bytes field given as hex; absent means empty. */
export function parseBytesField(value: unknown, field: string): Uint8Array {
  if (value === undefined || value === null || value === "") return new Uint8Array();
  const bytes = typeof value === "string" ? parseHex(value) : undefined;
  if (!bytes) throw new JsonParseError(`Invalid hex for field ${field}: ${JSON.stringify(value)}`);
  return bytes;
}

/** Where java-tron's request parsing dereferences null (Base58Check that does not decode to an address): its servlets answer `NullPointerException : null`. */
export class JavaNullPointer extends Error {
  override readonly name = "JavaNullPointer";
}

const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * Parses an address field as JsonFormat.merge does: hex (`ByteArray.fromHexString`) when `visible` is false,
 * Base58Check (`Commons.decodeFromBase58Check`) when true. Hex that is not a valid address is kept as is, so the
 * actuators refuse it ("Invalid ownerAddress!"); a Base58 address without `visible` is a ParseException ("INVALID
 * hex String"), hex with `visible` one too ("INVALID base58 String, Illegal character 0 at …") or, when every
 * character is Base58, a NullPointerException (the checksum fails).
 */
export function parseAddressField(value: unknown, visible: boolean, field: string): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array();
  if (typeof value !== "string") throw new JsonParseError("Expected string.", field);
  if (!visible) {
    const body = value.startsWith("0x") ? value.slice(2) : value;
    const bytes = parseHex(body.length % 2 === 0 ? body : "0" + body);
    if (!bytes) throw new JsonParseError("INVALID hex String", field);
    return bytes;
  }
  const illegal = [...value].findIndex((character) => !BASE58_ALPHABET.includes(character));
  if (illegal >= 0) throw new JsonParseError(`INVALID base58 String, Illegal character ${value[illegal]} at ${illegal}`, field);
  const address = parseAddress(value, true);
  if (!address) throw new JavaNullPointer("null");
  return address;
}

/** Parses a "name" bytes field: UTF-8 text when visible, hex otherwise. */
export function parseNameField(value: unknown, visible: boolean, field: string): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array();
  if (typeof value !== "string") throw new JsonParseError(`Invalid value for field ${field}`);
  return visible ? new TextEncoder().encode(value) : parseBytesField(value, field);
}

function asObject(value: unknown, what: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new JsonParseError(`Expected an object for ${what}`);
  return value as JsonObject;
}

/** Parses a contract parameter value (the body of builder requests uses the same field names). */
export function parseContractValue<T extends ContractTypeName>(
  type: T,
  value: JsonObject,
  visible: boolean,
  permissionId = 0,
): Extract<TransactionContract, { type: T }> {
  return parseAnyContractValue(type, value, visible, permissionId) as Extract<TransactionContract, { type: T }>;
}

function parseAnyContractValue(type: ContractTypeName, value: JsonObject, visible: boolean, permissionId: number): TransactionContract {
  switch (type) {
    case "TransferContract":
      return {
        type,
        permissionId,
        value: {
          owner_address: parseAddressField(value.owner_address, visible, "owner_address"),
          to_address: parseAddressField(value.to_address, visible, "to_address"),
          amount: parseInt64(value.amount, "amount"),
        },
      };
    case "TransferAssetContract":
      return {
        type,
        permissionId,
        value: {
          asset_name: parseNameField(value.asset_name, visible, "asset_name"),
          owner_address: parseAddressField(value.owner_address, visible, "owner_address"),
          to_address: parseAddressField(value.to_address, visible, "to_address"),
          amount: parseInt64(value.amount, "amount"),
        },
      };
    case "TriggerSmartContract":
      return {
        type,
        permissionId,
        value: {
          owner_address: parseAddressField(value.owner_address, visible, "owner_address"),
          contract_address: parseAddressField(value.contract_address, visible, "contract_address"),
          call_value: parseInt64(value.call_value, "call_value"),
          data: parseBytesField(value.data, "data"),
          call_token_value: parseInt64(value.call_token_value, "call_token_value"),
          token_id: parseInt64(value.token_id, "token_id"),
        },
      };
  }
}

function isSupportedType(type: unknown): type is ContractTypeName {
  return typeof type === "string" && Object.hasOwn(CONTRACT_TYPE_NUMBERS, type);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * One `raw_data.contract` entry as `Util.packTransaction` treats it: an entry without a type, with a type
 * java-tron does not know, or whose parameter does not parse is dropped (an empty list is returned).
 */
function packContract(entry: unknown, visible: boolean): TransactionContract[] {
  if (!isObject(entry) || typeof entry.type !== "string" || entry.type === "") return [];
  const type = entry.type;
  if (!isSupportedType(type)) {
    // A real node would execute these; the devnode cannot, and says so rather than pretending they are absent.
    if (JAVA_TRON_ONLY_CONTRACT_TYPES.has(type)) throw new DevnodeLimitation(`Unsupported contract type: ${type}`);
    return [];
  }
  try {
    const parameter = asObject(entry.parameter, "parameter");
    return [
      parseContractValue(type, asObject(parameter.value, "parameter.value"), visible, parseInt64(entry.Permission_id, "Permission_id")),
    ];
  } catch (error) {
    if ((error instanceof JsonParseError && !(error instanceof DevnodeLimitation)) || error instanceof JavaNullPointer) return [];
    throw error;
  }
}

/** Re-serialisable raw data from `raw_data` JSON, like java-tron's `Util.packTransaction`. */
export function parseTransactionRaw(rawJson: unknown, visible: boolean): TransactionRaw {
  if (!isObject(rawJson) || !Array.isArray(rawJson.contract)) throw new TransactionNotPacked("raw_data.contract is missing");
  const raw = rawJson;
  const contract = (rawJson.contract as unknown[]).flatMap((entry) => packContract(entry, visible));
  return {
    refBlockBytes: parseBytesField(raw.ref_block_bytes, "ref_block_bytes"),
    refBlockNum: parseInt64(raw.ref_block_num, "ref_block_num"),
    refBlockHash: parseBytesField(raw.ref_block_hash, "ref_block_hash"),
    expiration: parseInt64(raw.expiration, "expiration"),
    data: parseBytesField(raw.data, "data"),
    contract,
    timestamp: parseInt64(raw.timestamp, "timestamp"),
    feeLimit: parseInt64(raw.fee_limit, "fee_limit"),
  };
}

/**
 * Parses a signed transaction as POSTed to broadcasttransaction (`Util.packTransaction`). `txID`/`raw_data_hex`
 * are ignored, as the node does. Throws {@link TransactionNotPacked} where java-tron's packing returns null.
 */
export function parseTransactionJson(json: JsonObject, visible: boolean): Transaction {
  try {
    const raw = parseTransactionRaw(json.raw_data, visible);
    const signatureJson = json.signature ?? [];
    if (!Array.isArray(signatureJson)) throw new JsonParseError("signature must be an array");
    const signatures = signatureJson.map((signature: unknown) => parseBytesField(signature, "signature"));
    return { raw, signatures };
  } catch (error) {
    if (error instanceof JsonParseError && !(error instanceof DevnodeLimitation)) throw new TransactionNotPacked(error.message);
    throw error;
  }
}

function printAddress(address: Uint8Array, visible: boolean): string {
  return visible ? addressToBase58(address) : toHex(address);
}

/** Prints a JSON object with default values omitted. */
function compact(entries: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(entries)) {
    if (value === undefined || value === 0 || value === "" || value === false) continue;
    if (value instanceof Uint8Array && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

function printContractValue(contract: TransactionContract, visible: boolean): JsonObject {
  const address = (bytes: Uint8Array): string | undefined => (bytes.length === 0 ? undefined : printAddress(bytes, visible));
  switch (contract.type) {
    case "TransferContract":
      return compact({
        amount: contract.value.amount,
        owner_address: address(contract.value.owner_address),
        to_address: address(contract.value.to_address),
      });
    case "TransferAssetContract":
      return compact({
        amount: contract.value.amount,
        asset_name: visible ? new TextDecoder().decode(contract.value.asset_name) : toHex(contract.value.asset_name),
        owner_address: address(contract.value.owner_address),
        to_address: address(contract.value.to_address),
      });
    case "TriggerSmartContract":
      return compact({
        data: toHex(contract.value.data),
        owner_address: address(contract.value.owner_address),
        contract_address: address(contract.value.contract_address),
        call_value: contract.value.call_value,
        call_token_value: contract.value.call_token_value,
        token_id: contract.value.token_id,
      });
  }
}

/** Prints `raw_data`. */
export function printTransactionRaw(raw: TransactionRaw, visible: boolean): JsonObject {
  return compact({
    contract: raw.contract.map((contract) =>
      compact({
        parameter: { value: printContractValue(contract, visible), type_url: `type.googleapis.com/protocol.${contract.type}` },
        type: contract.type,
        Permission_id: contract.permissionId,
      }),
    ),
    ref_block_bytes: toHex(raw.refBlockBytes),
    ref_block_num: raw.refBlockNum,
    ref_block_hash: toHex(raw.refBlockHash),
    expiration: raw.expiration,
    data: toHex(raw.data),
    fee_limit: raw.feeLimit,
    timestamp: raw.timestamp,
  });
}

/**
 * Prints a transaction as java-tron does. `builder` adds `"visible"` first, as builder responses carry it
 * (transactions in blocks and from gettransactionbyid do not).
 */
export function printTransaction(transaction: Transaction, visible: boolean, builder = false): JsonObject {
  const out: JsonObject = {};
  if (transaction.contractRet !== undefined) out.ret = [{ contractRet: transaction.contractRet }];
  if (transaction.signatures.length > 0) out.signature = transaction.signatures.map((signature) => toHex(signature));
  if (builder) out.visible = visible;
  out.txID = toHex(transactionId(transaction.raw));
  out.raw_data = printTransactionRaw(transaction.raw, visible);
  out.raw_data_hex = toHex(encodeTransactionRaw(transaction.raw));
  return out;
}
