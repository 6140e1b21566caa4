import {
  createWebhookRequestSchema,
  DEFAULT_CONFIRMATIONS,
  updateWebhookRequestSchema,
  WEBHOOK_LIST_ADDRESS_CAP,
  webhookListQuerySchema,
} from "@chaingate/contracts";
import { ValidationError } from "@chaingate/errors";
import { parseRequest, type HttpApp } from "@chaingate/http";
import { checkWebhookSettings } from "../../domain/check-webhook-settings.ts";
import { generateSecret } from "../../domain/generate-secret.ts";
import { readAccountId } from "@chaingate/http";
import { WebhookNotFoundError } from "../not-found-errors.ts";
import { sendWebhook, sendWebhookPage } from "../send-webhook.ts";
import { checkWebhookBody } from "./check-webhook-body.ts";
import { normalizeAddresses } from "./normalize-addresses.ts";
import { readOwnedWebhook } from "./read-owned-webhook.ts";
import { storedWebhookChain } from "./webhook-chain.ts";
import { toWebhook } from "./to-webhook.ts";
import type { WebhookAppOptions } from "./webhook-app-options.ts";
import { ONE_WEBHOOK_PATH, WEBHOOKS_PATH } from "./webhook-paths.ts";

/** The webhooks themselves: create, list, read, update, delete, and a new secret. */
export function registerWebhookRoutes(http: HttpApp, options: WebhookAppOptions): void {
  const { repository } = options;

  http.route("post", WEBHOOKS_PATH, http.jsonBody, async (req, res) => {
    const accountId = readAccountId(req);
    const { body, errors } = await checkWebhookBody(createWebhookRequestSchema, req.body, options, options.chains);
    if (!body) throw new ValidationError(errors);
    const chain = storedWebhookChain(options.chains, body.coin);
    const addresses = normalizeAddresses(chain, body.addresses, options.bitcoinNetwork, errors);
    checkWebhookSettings(chain, body, errors);
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const isActive = body.is_active ?? true;
    const record = await repository.create(accountId, {
      coin: body.coin,
      webhook_url: body.webhook_url,
      secret: generateSecret(),
      is_active: isActive,
      xpub_ids: body.xpub_ids ?? [],
      confirmations: body.confirmations ?? DEFAULT_CONFIRMATIONS,
      include_tokens: body.include_tokens ?? chain.tokenReporting === "always",
      heartbeat_blocks: body.heartbeat_blocks ?? null,
      heartbeat_seconds: body.heartbeat_seconds ?? null,
      pending: body.pending ?? false,
      all_tokens: body.all_tokens ?? false,
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

  http.route("get", ONE_WEBHOOK_PATH, async (req, res) => {
    const { record } = await readOwnedWebhook(req, repository);
    await sendWebhook(res, 200, toWebhook(record), repository.addressChunks(record.id));
  });

  http.route("put", ONE_WEBHOOK_PATH, http.jsonBody, async (req, res) => {
    const { accountId, webhookId, record } = await readOwnedWebhook(req, repository);
    const { body, errors } = await checkWebhookBody(updateWebhookRequestSchema, req.body, options);
    if (!body) throw new ValidationError(errors);
    const chain = storedWebhookChain(options.chains, record.coin);
    const addresses = body.addresses === undefined ? undefined : normalizeAddresses(chain, body.addresses, options.bitcoinNetwork, errors);
    checkWebhookSettings(chain, body, errors);
    if (Object.keys(errors).length) throw new ValidationError(errors);
    if (!(await repository.update(accountId, webhookId, { ...body, addresses }))) throw new WebhookNotFoundError(String(webhookId));
    await sendWebhook(res, 200, toWebhook((await repository.find(accountId, webhookId))!), repository.addressChunks(webhookId));
  });

  http.route("delete", ONE_WEBHOOK_PATH, async (req, res) => {
    const { accountId, webhookId } = await readOwnedWebhook(req, repository);
    if (!(await repository.softDelete(accountId, webhookId))) throw new WebhookNotFoundError(String(webhookId));
    res.status(204).end();
  });

  http.route("post", `${ONE_WEBHOOK_PATH}/secret`, async (req, res) => {
    const { accountId, webhookId } = await readOwnedWebhook(req, repository);
    const rotated = { secret: generateSecret(), secretOverlapSeconds: options.secretOverlapSeconds ?? 0 };
    if (!(await repository.update(accountId, webhookId, rotated))) throw new WebhookNotFoundError(String(webhookId));
    await sendWebhook(res, 200, toWebhook((await repository.find(accountId, webhookId))!), repository.addressChunks(webhookId));
  });
}
