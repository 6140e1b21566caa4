/**
 * The account's own keys and usage (`/api/v1/keys*`, `/api/v1/usage`), answered by the gateway
 * itself (it owns accounts, keys and usage): authenticated like every proxied path, scoped to the
 * caller's account, in the spec's error shapes. The web console calls these like any client.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import {
  accountListQuerySchema,
  apiKeyListQuerySchema,
  createApiKeyRequestSchema,
  createAccountRequestSchema,
  OPERATOR_TOKEN_HEADER,
  usageQuerySchema,
} from "@chaingate/contracts";
import { parseRequest, type HttpApp } from "@chaingate/http";
import type { Request, RequestHandler, Response } from "express";
import type { AccountAdmin, AccountKey, AccountKeyPage, AccountSummary, CreatedApiKey } from "../infra/account-admin.ts";
import type { AuthenticatedKey } from "../infra/api-key-store.ts";
import type { AuthenticateRequest } from "./authenticate-request.ts";
import { authenticatedBy } from "./authenticated-by.ts";

/** Usage statistics group of these paths (counted on the X-API-Key path, like every other group). */
export const ACCOUNT_USAGE_GROUP = "account";
export const KEY_NOT_FOUND_MESSAGE = "No API key with this id belongs to the caller's account.";
export const OPERATOR_TOKEN_MESSAGE = "The operator token is missing or wrong. Send it in the X-Operator-Token header.";
const DAY_MS = 24 * 60 * 60 * 1000;

export interface AccountRoutesOptions {
  /** The gateway's one authentication (authenticate-request.ts): the same refusals and rate limit as every proxied path. */
  authenticate: AuthenticateRequest;
  admin: AccountAdmin;
  /** QUOTA_API_KEYS_PER_ACCOUNT: active keys an account may create for itself (the operator's paths are not held to it). */
  maxActiveKeysPerAccount: number;
  /** CONSOLE_OPERATOR_TOKEN; undefined: the operator paths do not exist. */
  operatorToken?: string;
}

/** The key `authenticate` found (set before any handler after it runs). */
const callerOf = (res: Response): AuthenticatedKey => res.locals.key as AuthenticatedKey;

function keyBody(row: AccountKey, currentKeyId?: number) {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    active: row.active,
    created_at: row.created_at.toISOString(),
    deactivated_at: row.deactivated_at?.toISOString() ?? null,
    last_used_on: row.last_used_on,
    current: row.id === currentKeyId,
  };
}

/** The stored row of a key just created, with its whole value (this answer is the only one that has it). */
async function createdKeyBody(admin: AccountAdmin, created: CreatedApiKey) {
  const [row] = await admin.accountKeys({ keyId: created.id });
  return { ...keyBody(row!), key: created.key };
}

function accountBody(account: AccountSummary) {
  return { id: account.id, name: account.name, created_at: account.created_at.toISOString(), active_keys: account.active_keys };
}

/** A list page's `meta`: where the page is, and how many rows and pages there are. */
function pageMeta(total: number, page: number, perPage: number) {
  return { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/** One page of keys in the answer's shape; `current` marks the caller's own key (none for the operator). */
function keyPageBody(found: AccountKeyPage, page: number, perPage: number, callerKeyId?: number) {
  return { data: found.rows.map((row) => keyBody(row, callerKeyId)), meta: pageMeta(found.total, page, perPage) };
}

/** The path's `:key`/`:account` (digits, guaranteed by the route's constraint). */
const idParam = (req: Request, name: string) => Number(req.params[name]);

export function registerAccountRoutes(http: HttpApp, options: AccountRoutesOptions): void {
  const { admin } = options;

  const authenticate = authenticatedBy(options.authenticate, ACCOUNT_USAGE_GROUP);

  http.route("get", "/api/v1/keys", authenticate, async (req, res) => {
    const { page, per_page } = parseRequest(apiKeyListQuerySchema, req.query);
    const key = callerOf(res);
    res.json(keyPageBody(await admin.accountKeyPage(key.accountId, page, per_page), page, per_page, key.keyId));
  });

  http.route("post", "/api/v1/keys", authenticate, http.jsonBody, async (req, res) => {
    const { name = null } = parseRequest(createApiKeyRequestSchema, req.body);
    const created = await admin.createApiKey(callerOf(res).accountId, name, { maxActiveKeys: options.maxActiveKeysPerAccount });
    res.status(201).json({ data: await createdKeyBody(admin, created) });
  });

  http.route("post", "/api/v1/keys/:key(\\d{1,15})/deactivate", authenticate, async (req, res) => {
    const key = callerOf(res);
    const [row] = await admin.accountKeys({ accountId: key.accountId, keyId: idParam(req, "key") });
    if (!row) return void res.status(404).json({ message: KEY_NOT_FOUND_MESSAGE });
    await admin.deactivateApiKey(row.id);
    const [changed] = await admin.accountKeys({ keyId: row.id });
    res.json({ data: keyBody(changed!, key.keyId) });
  });

  http.route("get", "/api/v1/usage", authenticate, async (req, res) => {
    const { days } = parseRequest(usageQuerySchema, req.query);
    const todayStart = Date.now() - (Date.now() % DAY_MS);
    const from = new Date(todayStart - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const to = new Date(todayStart).toISOString().slice(0, 10);
    res.json({ data: await admin.dailyUsage(callerOf(res).accountId, from), meta: { from, to, days } });
  });

  if (options.operatorToken) registerOperatorRoutes(http, admin, options.operatorToken);
}

/** Hashes first so the comparison takes the same time whatever the lengths. */
function sameSecret(candidate: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(candidate), digest(expected));
}

/** The operator CLI's account tasks over HTTP, behind CONSOLE_OPERATOR_TOKEN. */
function registerOperatorRoutes(http: HttpApp, admin: AccountAdmin, operatorToken: string): void {
  const operator: RequestHandler = (req, res, next) => {
    const sent = req.get(OPERATOR_TOKEN_HEADER);
    if (!sent || !sameSecret(sent, operatorToken)) return void res.status(401).json({ message: OPERATOR_TOKEN_MESSAGE });
    next();
  };

  http.route("get", "/api/v1/operator/accounts", operator, async (req, res) => {
    const { page, per_page } = parseRequest(accountListQuerySchema, req.query);
    const found = await admin.accountPage(page, per_page);
    res.json({ data: found.rows.map(accountBody), meta: pageMeta(found.total, page, per_page) });
  });

  http.route("post", "/api/v1/operator/accounts", operator, http.jsonBody, async (req, res) => {
    const { name } = parseRequest(createAccountRequestSchema, req.body);
    const accountId = await admin.createAccount(name);
    const created = await admin.createApiKey(accountId, null);
    const account = await admin.account(accountId);
    res.status(201).json({ data: { account: accountBody(account!), key: await createdKeyBody(admin, created) } });
  });

  http.route("get", "/api/v1/operator/accounts/:account(\\d{1,15})/keys", operator, async (req, res) => {
    const accountId = idParam(req, "account");
    const { page, per_page } = parseRequest(apiKeyListQuerySchema, req.query);
    if (!(await admin.accountExists(accountId))) return void res.status(404).json({ message: `No account with id ${accountId}.` });
    res.json(keyPageBody(await admin.accountKeyPage(accountId, page, per_page), page, per_page));
  });

  http.route("post", "/api/v1/operator/keys/:key(\\d{1,15})/deactivate", operator, async (req, res) => {
    const keyId = idParam(req, "key");
    await admin.deactivateApiKey(keyId);
    const [row] = await admin.accountKeys({ keyId });
    if (!row) return void res.status(404).json({ message: `No API key with id ${keyId}.` });
    res.json({ data: keyBody(row) });
  });
}
