import { storedWebhookChain } from "./webhook-chain.ts";
import { deliveryListQuerySchema } from "@chaingate/contracts";
import { parseRequest, type HttpApp } from "@chaingate/http";
import { DeliveryNotFoundError } from "../not-found-errors.ts";
import { readOwnedWebhook } from "./read-owned-webhook.ts";
import type { WebhookAppOptions } from "./webhook-app-options.ts";
import { ONE_WEBHOOK_PATH } from "./webhook-paths.ts";

/** A webhook's deliveries: list them, retry one, send a test event. */
export function registerDeliveryRoutes(http: HttpApp, options: WebhookAppOptions): void {
  const { repository } = options;

  http.route("get", `${ONE_WEBHOOK_PATH}/deliveries`, async (req, res) => {
    const { webhookId } = await readOwnedWebhook(req, repository);
    const { page, per_page: perPage, status } = parseRequest(deliveryListQuerySchema, req.query);
    const { total, deliveries } = await options.deliveries.list(webhookId, status, (page - 1) * perPage, perPage);
    res.json({
      data: deliveries,
      meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
    });
  });

  http.route("post", `${ONE_WEBHOOK_PATH}/deliveries/:delivery(\\d+)/retry`, async (req, res) => {
    const { webhookId } = await readOwnedWebhook(req, repository);
    const deliveryId = Number(req.params.delivery);
    const delivery = Number.isSafeInteger(deliveryId) ? await options.deliveries.retry(webhookId, deliveryId) : undefined;
    if (!delivery) throw new DeliveryNotFoundError(String(req.params.delivery));
    res.status(202).json({ data: delivery });
  });

  http.route("post", `${ONE_WEBHOOK_PATH}/test`, async (req, res) => {
    const { webhookId, record } = await readOwnedWebhook(req, repository);
    res.status(202).json({ data: await options.deliveries.sendTest(webhookId, storedWebhookChain(options.chains, record.coin)) });
  });
}
