import type { Request } from "express";
import type { WebhookRepository } from "../../infra/webhook-repository.ts";
import type { WebhookRecord } from "../../infra/webhook-repository/webhook-record.ts";
import { readAccountId } from "@chaingate/http";
import { WebhookNotFoundError } from "../not-found-errors.ts";

/** The caller's account, and its live webhook the path names; 404 when missing, deleted or another account's. */
export async function readOwnedWebhook(
  req: Request,
  repository: WebhookRepository,
): Promise<{ accountId: number; webhookId: number; record: WebhookRecord }> {
  const accountId = readAccountId(req);
  const id = String(req.params.webhook);
  const webhookId = Number(id);
  const record = Number.isSafeInteger(webhookId) ? await repository.find(accountId, webhookId) : undefined;
  if (!record) throw new WebhookNotFoundError(id);
  return { accountId, webhookId, record };
}
