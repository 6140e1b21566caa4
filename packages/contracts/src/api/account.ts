/**
 * The account's own keys and usage (`/api/v1/keys`, `/api/v1/usage`) and the operator's account
 * administration (`/api/v1/operator/*`), served by the gateway itself: the spec's "dashboard" as
 * a public API (chaingate extensions), which the web console at `/console` calls like any client.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "../zod.ts";
import { GATEWAY_RESPONSES, SECURITY, json } from "../openapi/openapi-registry.ts";
import { messageErrorSchema, validationErrorSchema } from "./error-bodies.ts";
import { DEFAULT_PER_PAGE, FIRST_PAGE, MAX_PER_PAGE, pageNumber } from "./xpub.ts";

export const API_KEY_NAME_MAX_CHARS = 100;
export const ACCOUNT_NAME_MAX_CHARS = 100;
/** Usage window: the console shows 30 days; at most 90 are kept worth asking for in one answer. */
export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 90;
/**
 * Deepest page of the key list: bounded so a page number never turns into an offset past what
 * Postgres takes (at 500 per page, 50 million keys, far beyond any account).
 */
export const MAX_KEY_LIST_PAGE = 100_000;
/** The header that carries CONSOLE_OPERATOR_TOKEN. */
export const OPERATOR_TOKEN_HEADER = "x-operator-token";

const keyNameField = z
  .string({ error: "The name field must be a string." })
  .trim()
  .min(1, { error: "The name field must not be empty." })
  .max(API_KEY_NAME_MAX_CHARS, { error: `The name field must not be greater than ${API_KEY_NAME_MAX_CHARS} characters.` })
  .openapi({ description: "A label for the key (where it is used).", example: "billing worker" });

export const createApiKeyRequestSchema = z.object({ name: keyNameField.nullable().optional() }).openapi("CreateApiKeyRequest");
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** Key list paging: the `page`/`per_page` rules of the other lists (default 50, at most 500), and a deepest page. */
export const apiKeyListQuerySchema = z.object({
  page: pageNumber("page", FIRST_PAGE, MAX_KEY_LIST_PAGE).openapi({
    description: `Page number, ${FIRST_PAGE} to ${MAX_KEY_LIST_PAGE}. A page past the last answers an empty \`data\` with the real \`meta\`.`,
  }),
  per_page: pageNumber("per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE).openapi({
    description: `Keys per page, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE}).`,
  }),
});
export type ApiKeyListQuery = z.infer<typeof apiKeyListQuerySchema>;

/** The operator's account list: the same paging rules as the key list (an account list is no smaller). */
export const accountListQuerySchema = z.object({
  page: pageNumber("page", FIRST_PAGE, MAX_KEY_LIST_PAGE).openapi({
    description: `Page number, ${FIRST_PAGE} to ${MAX_KEY_LIST_PAGE}. A page past the last answers an empty \`data\` with the real \`meta\`.`,
  }),
  per_page: pageNumber("per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE).openapi({
    description: `Accounts per page, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE}).`,
  }),
});

export const usageQuerySchema = z.object({
  days: z
    .string()
    .regex(/^-?[0-9]{1,6}$/, { error: "The days field must be an integer." })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { error: "The days field must be at least 1." })
        .max(MAX_USAGE_DAYS, { error: `The days field must not be greater than ${MAX_USAGE_DAYS}.` }),
    )
    .default(DEFAULT_USAGE_DAYS)
    .openapi({
      type: "integer",
      minimum: 1,
      maximum: MAX_USAGE_DAYS,
      default: DEFAULT_USAGE_DAYS,
      description: `Days back from today (UTC), today included; default ${DEFAULT_USAGE_DAYS}.`,
    }),
});

export const createAccountRequestSchema = z
  .object({
    name: z
      .string({ error: "The name field must be a string." })
      .trim()
      .min(1, { error: "The name field must not be empty." })
      .max(ACCOUNT_NAME_MAX_CHARS, { error: `The name field must not be greater than ${ACCOUNT_NAME_MAX_CHARS} characters.` })
      .openapi({ example: "acme" }),
  })
  .openapi("CreateAccountRequest");

export const apiKeySchema = z
  .object({
    id: z.number().int(),
    prefix: z.string().openapi({ description: "The key's first 8 characters: public, shown to tell keys apart.", example: "Ab12Cd34" }),
    name: z.string().nullable(),
    active: z.boolean(),
    created_at: z.iso.datetime(),
    deactivated_at: z.iso.datetime().nullable(),
    last_used_on: z.iso
      .date()
      .nullable()
      .openapi({ description: "The last UTC day the key was counted in the usage statistics (X-API-Key requests only); null when never." }),
    current: z
      .boolean()
      .openapi({ description: "Whether this is the key the request was made with (deactivating it ends the caller's access)." }),
  })
  .openapi("ApiKey");
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().openapi({ description: "The whole 40-character key: returned this once, stored only as a hash." }) })
  .openapi("CreatedApiKey");

export const apiKeyPageSchema = z
  .object({
    data: z.array(apiKeySchema),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .openapi("ApiKeyPage");

export const usageSchema = z
  .object({
    data: z.array(z.object({ day: z.iso.date(), endpoint_group: z.string().openapi({ example: "btc" }), request_count: z.number().int() })),
    meta: z.object({ from: z.iso.date(), to: z.iso.date(), days: z.number().int() }),
  })
  .openapi("Usage");

export const accountSchema = z
  .object({ id: z.number().int(), name: z.string(), created_at: z.iso.datetime(), active_keys: z.number().int() })
  .openapi("Account");

export const accountPageSchema = z
  .object({
    data: z.array(accountSchema),
    meta: z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() }),
  })
  .openapi("AccountPage");

const keyIdParam = z.object({
  key: z.number().int().nonnegative().openapi({ description: "API key id (digits; anything else is a routing miss).", example: 1 }),
});
const accountIdParam = z.object({ account: z.number().int().nonnegative().openapi({ description: "Account id.", example: 1 }) });
const VALIDATION = json("`{message, errors}`: the field-by-field reasons.", validationErrorSchema);
const dataOf = (schema: z.ZodType) => z.object({ data: schema });
const body = (schema: z.ZodType, required = true) => ({ body: { required, content: { "application/json": { schema } } } });

/** Registers `/api/v1/keys` and `/api/v1/usage`. */
export function registerAccountPaths(registry: OpenAPIRegistry): void {
  const tags = ["Account"];
  registry.registerPath({
    method: "get",
    path: "/api/v1/keys",
    tags,
    summary: "List the account's API keys",
    security: SECURITY,
    request: { query: apiKeyListQuerySchema },
    description: "The keys of the caller's account, active or not, ordered by id, a page at a time. The key itself is never returned here.",
    responses: {
      200: json("`{data: [key], meta: {current_page, per_page, total, last_page}}`", apiKeyPageSchema),
      422: VALIDATION,
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/v1/keys",
    tags,
    summary: "Create an API key",
    security: SECURITY,
    request: body(createApiKeyRequestSchema, false),
    description:
      "A new key of the caller's account. Its whole value is in this answer only. An account holds at most the gateway's QUOTA_API_KEYS_PER_ACCOUNT active keys (default 100): past it the answer is 422 with `errors.keys`, and deactivating a key frees its slot.",
    responses: {
      201: json("`{data: key}` with `key`.", dataOf(createdApiKeySchema)),
      422: json(
        "`{message, errors}`: a bad name (`errors.name`), or the account's active keys at their quota (`errors.keys`).",
        validationErrorSchema,
      ),
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/v1/keys/{key}/deactivate",
    tags,
    summary: "Deactivate an API key",
    security: SECURITY,
    request: { params: keyIdParam },
    description:
      "The key fails from the next request on (401), on every gateway replica. The caller may deactivate the very key it calls with (`current: true`): allowed, and the end of its access; the console asks first. Deactivating an inactive key changes nothing.",
    responses: {
      200: json("`{data: key}`, inactive.", dataOf(apiKeySchema)),
      404: json("No API key with this id belongs to the caller's account.", messageErrorSchema),
      ...GATEWAY_RESPONSES,
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/v1/usage",
    tags,
    summary: "Requests per day and endpoint group",
    security: SECURITY,
    request: { query: usageQuerySchema },
    description:
      "Counts of the account's requests made with `X-API-Key` (the Bearer path is not counted, as the spec says), per UTC day and endpoint group, over every key of the account. Days without requests are absent.",
    responses: {
      200: json("`{data: [{day, endpoint_group, request_count}], meta: {from, to, days}}`", usageSchema),
      422: VALIDATION,
      ...GATEWAY_RESPONSES,
    },
  });
}

/** Registers `/api/v1/operator/*` (present only when CONSOLE_OPERATOR_TOKEN is set). */
export function registerOperatorPaths(registry: OpenAPIRegistry): void {
  registry.registerComponent("securitySchemes", "OperatorToken", {
    type: "apiKey",
    in: "header",
    name: OPERATOR_TOKEN_HEADER,
    description: "The gateway's CONSOLE_OPERATOR_TOKEN. Without that setting the operator paths do not exist (404).",
  });
  const tags = ["Operator"];
  const security = [{ OperatorToken: [] }];
  const UNAUTHORIZED = json("The operator token is missing or wrong.", messageErrorSchema);
  const OFF = json("CONSOLE_OPERATOR_TOKEN is not set: the operator paths do not exist (a routing miss).", messageErrorSchema);
  registry.registerPath({
    method: "get",
    path: "/api/v1/operator/accounts",
    tags,
    summary: "List accounts",
    security,
    request: { query: accountListQuerySchema },
    description: "Every account by id, a page at a time, each with its count of active keys.",
    responses: {
      200: json("`{data: [account], meta: {current_page, per_page, total, last_page}}`", accountPageSchema),
      401: UNAUTHORIZED,
      404: OFF,
      422: VALIDATION,
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/v1/operator/accounts",
    tags,
    summary: "Create an account with its first key",
    security,
    request: body(createAccountRequestSchema),
    responses: {
      201: json(
        "`{data: {account, key}}`; the key's whole value is in this answer only.",
        dataOf(z.object({ account: accountSchema, key: createdApiKeySchema })),
      ),
      401: UNAUTHORIZED,
      404: OFF,
      422: VALIDATION,
    },
  });
  registry.registerPath({
    method: "get",
    path: "/api/v1/operator/accounts/{account}/keys",
    tags,
    summary: "List an account's keys",
    security,
    request: { params: accountIdParam, query: apiKeyListQuerySchema },
    responses: {
      200: json("One page of the account's keys by id, as `GET /api/v1/keys` pages them (`current` is always false).", apiKeyPageSchema),
      401: UNAUTHORIZED,
      404: json("No such account (or the operator paths are off).", messageErrorSchema),
      422: VALIDATION,
    },
  });
  registry.registerPath({
    method: "post",
    path: "/api/v1/operator/keys/{key}/deactivate",
    tags,
    summary: "Deactivate any key",
    security,
    request: { params: keyIdParam },
    responses: {
      200: json("`{data: key}`, inactive.", dataOf(apiKeySchema)),
      401: UNAUTHORIZED,
      404: json("No such key (or the operator paths are off).", messageErrorSchema),
    },
  });
}
