/**
 * The Bitcoin xpub endpoints (`/api/v1/btc/xpub*`): request and response schemas, validated by
 * the xpub service and rendered into the OpenAPI document from the same definitions.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "../zod.ts";
import { GATEWAY_RESPONSES, SECURITY, json } from "../openapi/openapi-registry.ts";
import { messageErrorSchema, validationErrorSchema } from "./error-bodies.ts";
import { coinSchema } from "../events/event-contract.ts";

/** Longest accepted label; the spec's limit for client-supplied strings (webhook address entries). */
export const XPUB_LABEL_MAX_CHARS = 255;
/** History pages are numbered from 1 (Laravel's paginator convention, which the spec's meta mirrors). */
export const FIRST_PAGE = 1;
/** Page size when `per_page` is omitted: Laravel's paginators default to 15; 50 saves round trips for reconciliation jobs. */
export const DEFAULT_PER_PAGE = 50;
/** Largest page: 500 rows are about 60 KB of JSON, small enough to serve from one index range scan. */
export const MAX_PER_PAGE = 500;
/**
 * Highest page number of the paged answers: (page - 1) × per_page stays an exact integer and a
 * Postgres bigint (page=9999999999999999 overflowed the OFFSET), and no real list reaches it.
 */
export const MAX_PAGE = 10_000_000;

// ── Requests ────────────────────────────────────────────────────────────────────────────────────

export const registerXpubRequestSchema = z
  .object({
    xpub: z.string({ error: (issue) => (issue.input === undefined ? undefined : "The xpub field must be a string.") }).openapi({
      description: "BIP84 account-level public key (m/84'/0'/account') in SLIP-0132 zpub encoding, exactly as the wallet exports it.",
      example: "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs",
    }),
    label: z
      .string({ error: "The label field must be a string." })
      .max(XPUB_LABEL_MAX_CHARS, { error: `The label field must not be greater than ${XPUB_LABEL_MAX_CHARS} characters.` })
      .nullable()
      .optional()
      .openapi({ description: "Free text for the client's own bookkeeping. Kept from the first registration of the key." }),
  })
  .openapi("RegisterXpubRequest");

export type RegisterXpubRequest = z.infer<typeof registerXpubRequestSchema>;

/**
 * A positive integer query parameter with Laravel-style messages naming the field. Digits are
 * checked as text first so "1.5", "abc" and "1e3" read "must be an integer", not a zod type error.
 */
export function pageNumber(field: string, fallback: number, max?: number) {
  const label = field.replaceAll("_", " ");
  let bounds = z.number().min(1, { error: `The ${label} field must be at least 1.` });
  if (max !== undefined) bounds = bounds.max(max, { error: `The ${label} field must not be greater than ${max}.` });
  return z
    .string()
    .regex(/^-?[0-9]{1,16}$/, { error: `The ${label} field must be an integer.` })
    .transform(Number)
    .pipe(bounds)
    .default(fallback)
    .openapi({ type: "integer", minimum: 1, ...(max === undefined ? {} : { maximum: max }), default: fallback });
}

export const addressHistoryQuerySchema = z.object({
  page: pageNumber("page", FIRST_PAGE, MAX_PAGE).openapi({
    description: `Page number, starting at ${FIRST_PAGE}, at most ${MAX_PAGE}. A page past the last answers an empty \`data\` with the real \`meta\`.`,
  }),
  per_page: pageNumber("per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE).openapi({
    description: `Addresses per page, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE}).`,
  }),
});

export type AddressHistoryQuery = z.infer<typeof addressHistoryQuerySchema>;

/** Path parameter `{id}`: digits only; anything else is a routing miss (404), never a 422. */
export const xpubIdPathSchema = z.object({
  id: z.number().int().nonnegative().openapi({ description: "Record id from the registration response.", example: 1 }),
});

// ── Responses ───────────────────────────────────────────────────────────────────────────────────

export const xpubRecordSchema = z
  .object({
    id: z.number().int().openapi({ description: "Record id, used in `{id}` paths." }),
    chain: coinSchema.openapi({
      description:
        "BTC under /api/v1/btc/xpub, ETH under /api/v1/eth/xpub, a configured EVM chain's coin (POLYGON) under /api/v1/{evm_chain}/xpub; records of one chain never answer under another's path.",
      example: "BTC",
    }),
    fingerprint: z.string().openapi({ description: "First 4 bytes of hash160 of the key's public key, hex.", example: "fd13aac9" }),
    label: z.string().nullable(),
    xpub_preview: z.string().openapi({
      description: "Masked key: first 8 characters, an ellipsis, the last 4. The full key is never returned.",
      example: "zpub6rFR…tZYs",
    }),
    next_index: z.number().int().openapi({ description: "Index the next issued address gets." }),
    issued_count: z
      .number()
      .int()
      .openapi({ description: "Addresses issued so far. Indexes are issued without gaps, so it equals next_index." }),
    created_at: z.iso.datetime().openapi({ example: "2026-11-02T10:15:30.123Z" }),
  })
  .openapi("XpubRecord", { description: "A registered account key: BIP84 zpub (Bitcoin) or BIP44 xpub (Ethereum)." });

export type XpubRecord = z.infer<typeof xpubRecordSchema>;

export const xpubRecordPageSchema = z
  .object({
    data: z.array(xpubRecordSchema),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .openapi("XpubRecordPage");

export const issuedAddressSchema = z
  .object({
    address: z.string().openapi({ example: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu" }),
    index: z.number().int().openapi({ description: "Derivation index on the receive chain, from 0." }),
    path: z.string().openapi({ example: "m/84'/0'/0'/0/0" }),
  })
  .openapi("IssuedAddress", { description: "A newly issued receive address: never handed out before for this key." });

export type IssuedAddress = z.infer<typeof issuedAddressSchema>;

export const addressHistoryEntrySchema = z
  .object({
    address: z.string(),
    index: z.number().int(),
    created_at: z.iso.datetime(),
  })
  .openapi("AddressHistoryEntry");

export const addressHistoryPageSchema = z
  .object({
    data: z.array(addressHistoryEntrySchema).openapi({ description: "Issued addresses ordered by index." }),
    meta: z.object({
      current_page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int().openapi({ description: "Addresses issued for the key." }),
      last_page: z.number().int().openapi({ description: "At least 1, also when nothing was issued yet." }),
    }),
  })
  .openapi("AddressHistoryPage");

export type AddressHistoryPage = z.infer<typeof addressHistoryPageSchema>;

export const ethIssuedAddressSchema = z
  .object({
    address: z.string().openapi({ description: "EIP-55 checksummed.", example: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }),
    address_lowercase: z.string().openapi({
      description: "The same address in lower case: what webhook matching on Ethereum compares.",
      example: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
    }),
    index: z.number().int().openapi({ description: "Derivation index on the receive chain, from 0." }),
    path: z.string().openapi({ example: "m/44'/60'/0'/0/0" }),
  })
  .openapi("EthIssuedAddress", { description: "A newly issued Ethereum receive address: never handed out before for this key." });

export type EthIssuedAddress = z.infer<typeof ethIssuedAddressSchema>;

export const ethAddressHistoryEntrySchema = z
  .object({
    address: z.string().openapi({ description: "EIP-55 checksummed." }),
    address_lowercase: z.string(),
    index: z.number().int(),
    created_at: z.iso.datetime(),
  })
  .openapi("EthAddressHistoryEntry");

export type EthAddressHistoryEntry = z.infer<typeof ethAddressHistoryEntrySchema>;

export const ethAddressHistoryPageSchema = addressHistoryPageSchema
  .extend({ data: z.array(ethAddressHistoryEntrySchema) })
  .openapi("EthAddressHistoryPage");

// ── Paths ───────────────────────────────────────────────────────────────────────────────────────

const ONE_KEY_ONE_ACCOUNT =
  "A key is registered by one account only (compared by public key and chain code, not by its text), so that one payment never notifies two accounts and no address is issued to two accounts. A key another account holds is refused with a 409 that names neither that account nor that it is another one; only the operator can move a record to its rightful account (`xpub-admin keys move`). Every EVM chain derives the same addresses from one key, so one key holds one record over Ethereum and the configured EVM chains together: registering under another EVM chain a key the account registered for one is a 409 naming that record (`errors.xpub`: register another account key, such as m/44'/60'/1', for the other chain).";

const NOT_FOUND = json(
  "No xpub record of this chain with this id belongs to the caller's account (also for non-numeric ids, as a routing miss).",
  messageErrorSchema,
);

/** What differs between the Bitcoin and the Ethereum xpub paths in the document. */
interface XpubArea {
  base: string;
  tag: string;
  keyName: string;
  keyDescription: string;
  issued: z.ZodType;
  page: z.ZodType;
}

const AREAS: XpubArea[] = [
  {
    base: "/api/v1/btc/xpub",
    tag: "Bitcoin xpub",
    keyName: "a BIP84 account zpub",
    keyDescription: "Only an account-level BIP84 public key in zpub encoding is accepted.",
    issued: issuedAddressSchema,
    page: addressHistoryPageSchema,
  },
  {
    base: "/api/v1/eth/xpub",
    tag: "Ethereum xpub",
    keyName: "a BIP44 Ethereum account xpub",
    keyDescription:
      "Only an account-level BIP44 public key (m/44'/60'/account') in xpub encoding is accepted; addresses are m/44'/60'/account'/0/index.",
    issued: ethIssuedAddressSchema,
    page: ethAddressHistoryPageSchema,
  },
];

/** Registers the xpub paths of Bitcoin and Ethereum in the OpenAPI document. */
export function registerXpubPaths(registry: OpenAPIRegistry): void {
  for (const area of AREAS) registerXpubArea(registry, area);
}

/** Registers Ethereum's xpub paths alone (registered again under each configured EVM chain's prefix, see evm-chains.ts). */
export function registerEthXpubPaths(registry: OpenAPIRegistry): void {
  registerXpubArea(registry, AREAS.find((area) => area.base === "/api/v1/eth/xpub")!);
}

function registerXpubArea(registry: OpenAPIRegistry, { base, tag, keyName, keyDescription, issued, page }: XpubArea): void {
  registry.registerPath({
    method: "post",
    path: base,
    tags: [tag],
    summary: `Register ${keyName}`,
    description: `${keyDescription} Registering the same key again from the same account answers 200 with the existing record (its original label is kept). ${ONE_KEY_ONE_ACCOUNT}`,
    security: SECURITY,
    request: { body: { required: true, content: { "application/json": { schema: registerXpubRequestSchema } } } },
    responses: {
      200: json("The key was already registered by this account: the existing record.", xpubRecordSchema),
      201: json("The key was registered.", xpubRecordSchema),
      409: json(
        'The key is registered, and not by this account (`errors.xpub`): "This extended key cannot be registered: it is already registered. If it is yours, ask the operator to move it to your account." Also for a record of this account that migration 0004 flagged as a duplicate, and (EVM chains) for a key this account registered for another EVM chain, whose record the message names.',
        validationErrorSchema,
      ),
      422: json(
        "`errors.xpub` says why the key was refused (unparseable, bad checksum, private key, another encoding, not account level), or that the account holds its quota of records (QUOTA_XPUB_RECORDS_PER_ACCOUNT, default 1,000 over both chains; a key the account already registered still answers 200); or `label` is too long.",
        validationErrorSchema,
      ),
      ...GATEWAY_RESPONSES,
    },
  });

  registry.registerPath({
    method: "get",
    path: base,
    tags: [tag],
    summary: "List the account's registered keys",
    description: "The caller's records of this chain, ordered by id (a chaingate extension: the console's list of watch-only keys).",
    security: SECURITY,
    request: { query: addressHistoryQuerySchema },
    responses: {
      200: json("One page of records.", xpubRecordPageSchema),
      422: json("`page` or `per_page` is not an integer, below 1, or above its maximum.", validationErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });

  registry.registerPath({
    method: "post",
    path: `${base}/{id}/address`,
    tags: [tag],
    summary: "Issue the next receive address",
    description:
      "Takes the record's next index under a row lock, stores the address and increments next_index in one transaction: concurrent calls, on any number of replicas, never hand out the same index or address.",
    security: SECURITY,
    request: { params: xpubIdPathSchema },
    responses: {
      201: json("The issued address.", issued),
      404: NOT_FOUND,
      409: json(
        "The record's key is held by an older record (two accounts registered it before the one-account rule existed), so it issues nothing (`errors.id`); the message names neither that record nor its account.",
        validationErrorSchema,
      ),
      422: json("The per-key address limit is reached (`errors.id`).", validationErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });

  registry.registerPath({
    method: "get",
    path: `${base}/{id}/addresses`,
    tags: [tag],
    summary: "List the addresses issued for a key",
    security: SECURITY,
    request: { params: xpubIdPathSchema, query: addressHistoryQuerySchema },
    responses: {
      200: json("One page of the issued addresses, ordered by index.", page),
      404: NOT_FOUND,
      422: json("`page` or `per_page` is not an integer, below 1, or above its maximum.", validationErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
}
