/**
 * `address.issued` → the webhooks that name the issuing key watch the new address (auto-watch).
 * One durable consumer shared by the replicas; redelivery is harmless (watching is idempotent).
 */
import type { Bus, Consumption } from "@chaingate/bus";
import { addressIssued } from "@chaingate/contracts";
import type { WebhookRepository } from "../infra/webhook-repository.ts";

/** Durable consumer of `address.issued` (replicas share it). */
export const ADDRESS_ISSUED_CONSUMER = "delivery-auto-watch";

export function watchIssuedAddresses(bus: Bus, repository: Pick<WebhookRepository, "watchIssuedAddress">): Promise<Consumption> {
  return bus.consume(addressIssued, {
    durable: ADDRESS_ISSUED_CONSUMER,
    handle: async (issued) => {
      await repository.watchIssuedAddress(issued);
    },
  });
}
