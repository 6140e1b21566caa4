/**
 * The xpub service's HTTP app: register a key, issue the next address, list issued addresses.
 * The gateway forwards `/api/v1/btc/xpub*` here unchanged, with the caller's account id header.
 */
import { ValidationError } from "@chaingate/errors";
import { createHttpApp, parseRequest, type HttpApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { Request } from "express";
import type { BitcoinNetwork } from "../domain/bitcoin-network.ts";
import { parseAccountZpub } from "../domain/parse-account-zpub.ts";
import { XpubRejectedError } from "../domain/xpub-rejection-errors.ts";
import type { XpubRepository } from "../infra/xpub-repository.ts";
import { readAccountId } from "./read-account-id.ts";
import { toXpubRecord } from "./to-xpub-record.ts";
import { addressHistoryQuerySchema, registerXpubRequestSchema, type AddressHistoryPage, type IssuedAddress } from "@chaingate/contracts";
import { XpubRecordNotFoundError } from "./xpub-record-not-found-error.ts";

export const XPUB_BASE_PATH = "/api/v1/btc/xpub";

export interface XpubAppOptions {
  repository: XpubRepository;
  network: BitcoinNetwork;
  logger: Logger;
  readinessChecks: Record<string, () => Promise<unknown>>;
  /** When set, only requests carrying the gateway's internal token are answered. */
  internalToken?: string | undefined;
}

/** Builds the express app; `finish()` is already called. */
export function createXpubApp({ repository, network, logger, readinessChecks, internalToken }: XpubAppOptions): HttpApp {
  const http = createHttpApp({
    service: "xpub",
    logger,
    readinessChecks,
    internalToken,
    errorResponses: {
      missing_account: (error) => ({ status: 401, body: { message: error.message } }),
      xpub_record_not_found: (error) => ({ status: 404, body: { message: error.message } }),
    },
  });

  http.route("post", XPUB_BASE_PATH, http.jsonBody, async (req, res) => {
    const accountId = readAccountId(req);
    const body = parseRequest(registerXpubRequestSchema, req.body);
    let key;
    try {
      key = parseAccountZpub(body.xpub, network);
    } catch (error) {
      if (error instanceof XpubRejectedError) throw new ValidationError({ xpub: [error.message] });
      throw error;
    }
    const { record, created } = await repository.register(accountId, key, body.label ?? null);
    // 201 only when this call created the record (Laravel's JsonResource convention).
    res.status(created ? 201 : 200).json(toXpubRecord(record));
  });

  http.route("post", `${XPUB_BASE_PATH}/:id(\\d+)/address`, async (req, res) => {
    const keyId = routeId(req);
    const accountId = readAccountId(req);
    const result = await repository.issueAddress(accountId, keyId);
    if (result.outcome === "not_found") throw new XpubRecordNotFoundError(String(req.params.id));
    if (result.outcome === "limit_reached") {
      throw new ValidationError({ id: [`This key has issued its limit of ${result.limit} addresses; register another account key to issue more.`] });
    }
    const body: IssuedAddress = result.address;
    res.status(201).json(body);
  });

  http.route("get", `${XPUB_BASE_PATH}/:id(\\d+)/addresses`, async (req, res) => {
    const keyId = routeId(req);
    const accountId = readAccountId(req);
    const { page, per_page: perPage } = parseRequest(addressHistoryQuerySchema, req.query);
    const history = await repository.addressHistory(accountId, keyId, (page - 1) * perPage, perPage);
    if (!history) throw new XpubRecordNotFoundError(String(req.params.id));
    const body: AddressHistoryPage = {
      data: history.addresses.map(({ address, index, created_at }) => ({ address, index, created_at: created_at.toISOString() })),
      meta: { current_page: page, per_page: perPage, total: history.total, last_page: Math.max(1, Math.ceil(history.total / perPage)) },
    };
    res.json(body);
  });

  http.finish();
  return http;
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

