/**
 * The registry endpoints (`/api/v1/webhooks*`). The gateway forwards them here with the caller's
 * account id header; every query is scoped to that account.
 */
import { ValidationError, type FieldErrors } from "@chaingate/errors";
import { checkRequest, createHttpApp, parseRequest, type HttpApp } from "@chaingate/http";
import type { Logger } from "@chaingate/logger";
import type { ServiceMetrics } from "@chaingate/service-kit";
import type { Request } from "express";
import type { z } from "zod";
import {
  createWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookAddressBatchSchema,
  webhookListQuerySchema,
  webhookAddressPageQuerySchema,
  deliveryListQuerySchema,
  WEBHOOK_LIST_ADDRESS_CAP,
  DEFAULT_CONFIRMATIONS,
  defaultIncludeTokens,
  type Coin,
  type QuotaUsage,
  type Webhook,
  QUOTA_USAGE_ROUTE,
} from "@chaingate/contracts";
import type { BitcoinNetwork } from "@chaingate/bitcoin";
import { normalizeAddress } from "../domain/validate-address.ts";
import type { ResolveHost } from "../domain/check-webhook-url.ts";
import { checkWebhookUrl } from "../domain/check-webhook-url.ts";
import type { Cidr } from "../domain/forbidden-address.ts";
import { generateSecret } from "../domain/generate-secret.ts";
import { checkWebhookSettings } from "../domain/check-webhook-settings.ts";
import type { WebhookRecord, WebhookRepository } from "../infra/webhook-repository.ts";
import type { DeliveryLog } from "../infra/delivery-log.ts";
import type { RegistryQuotas, TestEventRateError } from "../domain/registry-quotas.ts";
import { DeliveryNotFoundError, readAccountId, WebhookNotFoundError } from "./read-account-id.ts";
import { sendWebhook, sendWebhookPage, type WebhookWithoutAddresses } from "./send-webhook.ts";
import type { DeliveryPendingError } from "../domain/manual-retry.ts";
import { ADDRESS_PAYLOAD_BYTES, largePayloadGarbage } from "../infra/large-payload-garbage.ts";

export const WEBHOOKS_PATH = "/api/v1/webhooks";
const WEBHOOK_BODY_LIMIT = "3mb";

export interface WebhookAppOptions {
  repository: WebhookRepository;
  deliveries: DeliveryLog;
  /** Shown with the usage on the internal quota route (the repository and the log enforce them). */
  quotas: RegistryQuotas;
  bitcoinNetwork: BitcoinNetwork;
  allowCidrs: readonly Cidr[];
  resolveHost: ResolveHost;
  logger: Logger;
  /** The service's metrics registry (its own observers registered there too); one is made when absent. */
  metrics?: ServiceMetrics;
  readinessChecks: Record<string, () => Promise<unknown>>;
  degradedChecks?: Record<string, () => Promise<unknown>>;
  internalToken?: string | undefined;
}

/**
 * The spec's webhook without its addresses (the list adds its capped array, single answers stream
 * them): is_active raw 0/1 except in the create answer, which echoes the boolean.
 */
export function toWebhook(record: WebhookRecord, isActive: Webhook["is_active"] = record.is_active as 0 | 1): WebhookWithoutAddresses {
  return {
    id: record.id,
    user_id: record.account_id,
    coin: record.coin,
    webhook_url: record.webhook_url,
    address_count: record.address_count,
    secret: record.secret,
    is_active: isActive,
    xpub_ids: record.xpub_ids.map(Number),
    confirmations: record.confirmations,
    include_tokens: record.include_tokens,
    last_triggered_at: null,
    deleted_at: null,
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

export function createWebhookApp(options: WebhookAppOptions): HttpApp {
  const { repository } = options;
  const http = createHttpApp({
    service: "delivery",
    logger: options.logger,
    metrics: options.metrics,
    readinessChecks: options.readinessChecks,
    degradedChecks: options.degradedChecks,
    internalToken: options.internalToken,
    // 10,000 addresses of up to 255 characters (the per-request cap) fit.
    jsonBodyLimit: WEBHOOK_BODY_LIMIT,
    errorResponses: {
      missing_account: (error) => ({ status: 401, body: { message: error.message } }),
      webhook_not_found: (error) => ({ status: 404, body: { message: error.message } }),
      delivery_not_found: (error) => ({ status: 404, body: { message: error.message } }),
      delivery_pending: (error) => ({ status: 409, body: { message: error.message, status: (error as DeliveryPendingError).status } }),
      test_event_rate_exceeded: (error) => ({
        status: 429,
        headers: { "retry-after": String((error as TestEventRateError).retryAfterSeconds) },
        body: { message: error.message },
      }),
    },
  });

  /** Validated, normalised, de-duplicated addresses; errors keyed `addresses.<i>`. */
  function normalizeAll(coin: Coin, addresses: readonly string[], errors: FieldErrors): string[] {
    const stored = new Set<string>();
    addresses.forEach((address, index) => {
      const normalized = normalizeAddress(coin, address, options.bitcoinNetwork);
      if (normalized === null) errors[`addresses.${index}`] = [`The addresses.${index} field must be a valid ${coin} address.`];
      else stored.add(normalized);
    });
    return [...stored];
  }

  async function checkUrl(url: string, errors: FieldErrors): Promise<void> {
    const reason = await checkWebhookUrl(url, options.resolveHost, options.allowCidrs);
    if (reason) errors.webhook_url = [reason];
  }

  /**
   * The schema's verdict and the URL's own checks, which need no other field: they run even when
   * the schema refused other fields, so one 422 names every invalid field. `body` is undefined when
   * the schema refused the request.
   */
  async function checkBody<Schema extends z.ZodType<{ webhook_url?: string | undefined }>>(
    schema: Schema,
    input: unknown,
  ): Promise<{ body: z.infer<Schema> | undefined; errors: FieldErrors }> {
    const checked = checkRequest(schema, input);
    const errors: FieldErrors = checked.ok ? {} : checked.fieldErrors;
    const url = checked.ok ? checked.data.webhook_url : (input as { webhook_url?: unknown } | null)?.webhook_url;
    if (typeof url === "string" && !errors.webhook_url) await checkUrl(url, errors);
    return { body: checked.ok ? checked.data : undefined, errors };
  }

  async function owned(req: Request): Promise<{ accountId: number; webhookId: number; record: WebhookRecord }> {
    const accountId = readAccountId(req);
    const id = String(req.params.webhook);
    const webhookId = Number(id);
    const record = Number.isSafeInteger(webhookId) ? await repository.find(accountId, webhookId) : undefined;
    if (!record) throw new WebhookNotFoundError(id);
    return { accountId, webhookId, record };
  }

  const one = `${WEBHOOKS_PATH}/:webhook(\\d+)`;

  http.route("post", WEBHOOKS_PATH, http.jsonBody, async (req, res) => {
    const accountId = readAccountId(req);
    const { body, errors } = await checkBody(createWebhookRequestSchema, req.body);
    if (!body) throw new ValidationError(errors);
    const addresses = normalizeAll(body.coin, body.addresses, errors);
    checkWebhookSettings(body.coin, body, errors);
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const isActive = body.is_active ?? true;
    const record = await repository.create(accountId, {
      coin: body.coin,
      webhook_url: body.webhook_url,
      secret: generateSecret(),
      is_active: isActive,
      xpub_ids: body.xpub_ids ?? [],
      confirmations: body.confirmations ?? DEFAULT_CONFIRMATIONS,
      include_tokens: body.include_tokens ?? defaultIncludeTokens(body.coin),
      addresses,
    });
    await sendWebhook(res, 201, toWebhook(record, isActive), repository.addressChunks(record.id));
  });

  http.route("get", WEBHOOKS_PATH, async (req, res) => {
    const accountId = readAccountId(req);
    const { page, per_page: perPage } = parseRequest(webhookListQuerySchema, req.query);
    const { total, webhooks } = await repository.listPage(accountId, (page - 1) * perPage, perPage);
    // Streamed a few webhooks' addresses at a time: a page of 500 at the cap is 500,000 addresses.
    await sendWebhookPage(
      res,
      webhooks.map((record) => toWebhook(record)),
      repository.cappedAddresses(webhooks, WEBHOOK_LIST_ADDRESS_CAP),
      { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
    );
  });

  http.route("get", one, async (req, res) => {
    const { record } = await owned(req);
    await sendWebhook(res, 200, toWebhook(record), repository.addressChunks(record.id));
  });

  http.route("get", `${one}/addresses`, async (req, res) => {
    const { webhookId, record } = await owned(req);
    const { page, per_page: perPage, after } = parseRequest(webhookAddressPageQuerySchema, req.query);
    const total = record.address_count;
    const offset = (page - 1) * perPage;
    // Past the last page nothing is read (an offset makes the index scan skip every earlier address).
    const data = after === undefined && offset >= total ? [] : await repository.addressPage(webhookId, offset, perPage, after);
    const nextAfter = data.length === perPage ? data.at(-1)!.address : null;
    // Pages of 10,000 add up like a streamed webhook.
    largePayloadGarbage.count(data.length * ADDRESS_PAYLOAD_BYTES);
    res.json({
      data,
      meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)), next_after: nextAfter },
    });
  });

  http.route("put", one, http.jsonBody, async (req, res) => {
    const { accountId, webhookId, record } = await owned(req);
    const { body, errors } = await checkBody(updateWebhookRequestSchema, req.body);
    if (!body) throw new ValidationError(errors);
    const addresses = body.addresses === undefined ? undefined : normalizeAll(record.coin, body.addresses, errors);
    checkWebhookSettings(record.coin, body, errors);
    if (Object.keys(errors).length) throw new ValidationError(errors);
    if (!(await repository.update(accountId, webhookId, { ...body, addresses }))) throw new WebhookNotFoundError(String(webhookId));
    await sendWebhook(res, 200, toWebhook((await repository.find(accountId, webhookId))!), repository.addressChunks(webhookId));
  });

  http.route("delete", one, async (req, res) => {
    const { accountId, webhookId } = await owned(req);
    if (!(await repository.softDelete(accountId, webhookId))) throw new WebhookNotFoundError(String(webhookId));
    res.status(204).end();
  });

  http.route("post", `${one}/secret`, async (req, res) => {
    const { accountId, webhookId } = await owned(req);
    if (!(await repository.update(accountId, webhookId, { secret: generateSecret() }))) throw new WebhookNotFoundError(String(webhookId));
    await sendWebhook(res, 200, toWebhook((await repository.find(accountId, webhookId))!), repository.addressChunks(webhookId));
  });

  for (const add of [true, false]) {
    http.route(add ? "post" : "delete", `${one}/addresses`, http.jsonBody, async (req, res) => {
      const { accountId, webhookId, record } = await owned(req);
      const body = parseRequest(webhookAddressBatchSchema, req.body);
      const errors: FieldErrors = {};
      const addresses = normalizeAll(record.coin, body.addresses, errors);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const result = await repository.changeAddresses(accountId, webhookId, addresses, add);
      if (!result) throw new WebhookNotFoundError(String(webhookId));
      res.json({ data: add ? { added: result.changed, total: result.total } : { removed: result.changed, total: result.total } });
    });
  }

  http.route("get", `${one}/deliveries`, async (req, res) => {
    const { webhookId } = await owned(req);
    const { page, per_page: perPage, status } = parseRequest(deliveryListQuerySchema, req.query);
    const { total, deliveries } = await options.deliveries.list(webhookId, status, (page - 1) * perPage, perPage);
    res.json({
      data: deliveries,
      meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
    });
  });

  http.route("post", `${one}/deliveries/:delivery(\\d+)/retry`, async (req, res) => {
    const { webhookId } = await owned(req);
    const deliveryId = Number(req.params.delivery);
    const delivery = Number.isSafeInteger(deliveryId) ? await options.deliveries.retry(webhookId, deliveryId) : undefined;
    if (!delivery) throw new DeliveryNotFoundError(String(req.params.delivery));
    res.status(202).json({ data: delivery });
  });

  http.route("post", `${one}/test`, async (req, res) => {
    const { webhookId, record } = await owned(req);
    res.status(202).json({ data: await options.deliveries.sendTest(webhookId, record.coin) });
  });

  // Internal (the admin CLI's `quotas`; the gateway routes only /api/v1 here): what the account uses of its quotas.
  http.route("get", QUOTA_USAGE_ROUTE, async (req, res) => {
    const accountId = Number(req.params.account);
    const usage = await repository.usage(accountId);
    const { quotas } = options;
    const answer: QuotaUsage = {
      account_id: accountId,
      quotas: [
        { setting: "QUOTA_WEBHOOKS_PER_ACCOUNT", used: usage.webhooks, limit: quotas.webhooksPerAccount },
        { setting: "QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT", used: usage.addresses, limit: quotas.addressesPerAccount },
        {
          setting: "QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE",
          used: usage.testEventsLastMinute,
          limit: quotas.testEventsPerWebhookPerMinute,
        },
      ],
    };
    res.json(answer);
  });

  http.finish();
  return http;
}
