import { storedWebhookChain } from "./webhook-chain.ts";
import { webhookAddressBatchSchema, webhookAddressPageQuerySchema } from "@chaingate/contracts";
import { ValidationError, type FieldErrors } from "@chaingate/errors";
import { parseRequest, type HttpApp } from "@chaingate/http";
import { ADDRESS_PAYLOAD_BYTES, largePayloadGarbage } from "../../infra/large-payload-garbage.ts";
import { WebhookNotFoundError } from "../not-found-errors.ts";
import { normalizeAddresses } from "./normalize-addresses.ts";
import { readOwnedWebhook } from "./read-owned-webhook.ts";
import type { WebhookAppOptions } from "./webhook-app-options.ts";
import { ONE_WEBHOOK_PATH } from "./webhook-paths.ts";

/** A webhook's addresses: read a page, add a batch, remove a batch. */
export function registerAddressRoutes(http: HttpApp, options: WebhookAppOptions): void {
  const { repository } = options;

  http.route("get", `${ONE_WEBHOOK_PATH}/addresses`, async (req, res) => {
    const { webhookId, record } = await readOwnedWebhook(req, repository);
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

  for (const add of [true, false]) {
    http.route(add ? "post" : "delete", `${ONE_WEBHOOK_PATH}/addresses`, http.jsonBody, async (req, res) => {
      const { accountId, webhookId, record } = await readOwnedWebhook(req, repository);
      const body = parseRequest(webhookAddressBatchSchema, req.body);
      const errors: FieldErrors = {};
      const addresses = normalizeAddresses(storedWebhookChain(options.chains, record.coin), body.addresses, options.bitcoinNetwork, errors);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const result = await repository.changeAddresses(accountId, webhookId, addresses, add);
      if (!result) throw new WebhookNotFoundError(String(webhookId));
      res.json({ data: add ? { added: result.changed, total: result.total } : { removed: result.changed, total: result.total } });
    });
  }
}
