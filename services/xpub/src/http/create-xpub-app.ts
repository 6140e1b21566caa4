/**
 * The xpub service's HTTP app: register a key, issue the next address, list issued addresses, for
 * Bitcoin (`/api/v1/btc/xpub*`), Ethereum (`/api/v1/eth/xpub*`) and each configured EVM chain
 * (`/api/v1/{name}/xpub*`). The gateway forwards them here unchanged, with the caller's account id header.
 */
import { REQUEST_BODY_LIMITS } from "@chaingate/contracts";
import { ValidationError } from "@chaingate/errors";
import { createHttpApp, parseRequest, type HttpApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { Request } from "express";
import type { IssuedAddressOf, ParsedAccountKey } from "../domain/key-scheme.ts";
import { XpubRejectedError } from "../domain/xpub-rejection-errors.ts";
import type { XpubRepository } from "../infra/xpub-repository.ts";
import { readAccountId } from "@chaingate/http";
import { toXpubRecord } from "./to-xpub-record.ts";
import {
  addressHistoryQuerySchema,
  registerXpubRequestSchema,
  type AddressHistoryPage,
  type EthAddressHistoryEntry,
  type EthIssuedAddress,
  type IssuedAddress,
  type QuotaUsage,
  QUOTA_USAGE_ROUTE,
} from "@chaingate/contracts";
import { XpubKeyHeldError } from "./xpub-key-held-error.ts";
import { XpubKeyOnAnotherChainError } from "./xpub-key-on-another-chain-error.ts";
import { XpubRecordNotFoundError } from "./xpub-record-not-found-error.ts";

export const XPUB_BASE_PATH = "/api/v1/btc/xpub";
export const ETH_XPUB_BASE_PATH = "/api/v1/eth/xpub";

/** One chain's records behind one base path. */
export interface XpubChainRoutes {
  /** The records' chain (BTC, ETH, a configured EVM chain's coin). */
  chain: string;
  basePath: string;
  repository: XpubRepository;
  /** Validates the key from the request body; throws XpubRejectedError with the reason. */
  parseKey(input: string): ParsedAccountKey;
  /** The issue response for an address (Ethereum adds the lower-case form). */
  toIssued(address: IssuedAddressOf): IssuedAddress | EthIssuedAddress;
  /** A history entry (Ethereum adds the lower-case form). */
  toHistoryEntry(entry: { address: string; index: number; created_at: Date }): AddressHistoryPage["data"][number] | EthAddressHistoryEntry;
}

export interface XpubAppOptions {
  chains: XpubChainRoutes[];
  logger: Logger;
  readinessChecks: Record<string, () => Promise<unknown>>;
  degradedChecks?: Record<string, () => Promise<unknown>>;
  /** When set, only requests carrying the gateway's internal token are answered. */
  internalToken?: string | undefined;
  /** What an account uses of the service's quotas (the internal quota route of the admin CLI). */
  quotaUsage(accountId: number): Promise<QuotaUsage>;
}

/** Builds the express app; `finish()` is already called. */
export function createXpubApp({ chains, logger, readinessChecks, degradedChecks, internalToken, quotaUsage }: XpubAppOptions): HttpApp {
  const http = createHttpApp({
    service: "xpub",
    logger,
    readinessChecks,
    degradedChecks,
    internalToken,
    jsonBodyLimit: REQUEST_BODY_LIMITS.xpub,
    errorResponses: {
      missing_account: (error) => ({ status: 401, body: { message: error.message } }),
      xpub_record_not_found: (error) => ({ status: 404, body: { message: error.message } }),
      xpub_key_held_by_another_account: (error) => ({
        status: 409,
        body: { message: error.message, errors: { [(error as XpubKeyHeldError).field]: [error.message] } },
      }),
      xpub_key_on_another_chain: (error) => ({ status: 409, body: { message: error.message, errors: { xpub: [error.message] } } }),
    },
  });
  for (const chain of chains) registerChainRoutes(http, chain);
  // Internal (not under /api/v1, so the gateway never routes it).
  http.route("get", QUOTA_USAGE_ROUTE, async (req, res) => {
    res.json(await quotaUsage(Number(req.params.account)));
  });
  http.finish();
  return http;
}

function registerChainRoutes(http: HttpApp, { chain, basePath, repository, parseKey, toIssued, toHistoryEntry }: XpubChainRoutes): void {
  http.route("post", basePath, http.jsonBody, async (req, res) => {
    const accountId = readAccountId(req);
    const body = parseRequest(registerXpubRequestSchema, req.body);
    let key;
    try {
      key = parseKey(body.xpub);
    } catch (error) {
      if (error instanceof XpubRejectedError) throw new ValidationError({ xpub: [error.message] });
      throw error;
    }
    const registered = await repository.register(accountId, key, body.label ?? null);
    if (registered.outcome === "held_by_another_account") throw new XpubKeyHeldError("xpub");
    if (registered.outcome === "registered_for_another_chain")
      throw new XpubKeyOnAnotherChainError(chain, registered.chain, registered.recordId);
    if (registered.outcome === "quota_reached") {
      throw new ValidationError({
        xpub: [
          `This account already holds ${registered.limit} extended-key records, its quota (QUOTA_XPUB_RECORDS_PER_ACCOUNT = ${registered.limit}); ask the operator to raise the quota.`,
        ],
      });
    }
    // 201 only when this call created the record (Laravel's JsonResource convention).
    res.status(registered.created ? 201 : 200).json(toXpubRecord(registered.record));
  });

  http.route("get", basePath, async (req, res) => {
    const accountId = readAccountId(req);
    const { page, per_page: perPage } = parseRequest(addressHistoryQuerySchema, req.query);
    const { total, records } = await repository.listRecords(accountId, (page - 1) * perPage, perPage);
    res.json({
      data: records.map(toXpubRecord),
      meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
    });
  });

  http.route("post", `${basePath}/:id(\\d+)/address`, async (req, res) => {
    const keyId = routeId(req);
    const accountId = readAccountId(req);
    const result = await repository.issueAddress(accountId, keyId);
    if (result.outcome === "not_found") throw new XpubRecordNotFoundError(String(req.params.id));
    if (result.outcome === "held_by_another_account") throw new XpubKeyHeldError("id");
    if (result.outcome === "limit_reached") {
      throw new ValidationError({
        id: [`This key has issued its limit of ${result.limit} addresses; register another account key to issue more.`],
      });
    }
    res.status(201).json(toIssued(result.address));
  });

  http.route("get", `${basePath}/:id(\\d+)/addresses`, async (req, res) => {
    const keyId = routeId(req);
    const accountId = readAccountId(req);
    const { page, per_page: perPage } = parseRequest(addressHistoryQuerySchema, req.query);
    const history = await repository.addressHistory(accountId, keyId, (page - 1) * perPage, perPage);
    if (!history) throw new XpubRecordNotFoundError(String(req.params.id));
    res.json({
      data: history.addresses.map(toHistoryEntry),
      meta: { current_page: page, per_page: perPage, total: history.total, last_page: Math.max(1, Math.ceil(history.total / perPage)) },
    });
  });
}

/**
 * The numeric `{id}` (the route's constraint made a non-numeric one a routing miss). Digits
 * beyond any bigserial value cannot name a record.
 */
function routeId(req: Request): number {
  const id = String(req.params.id);
  const value = Number(id);
  if (!Number.isSafeInteger(value)) throw new XpubRecordNotFoundError(id);
  return value;
}
