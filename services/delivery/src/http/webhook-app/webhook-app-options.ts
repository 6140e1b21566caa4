import type { BitcoinNetwork } from "@chaingate/bitcoin";
import type { ChainRegistry } from "@chaingate/chain-registry";
import type { Logger } from "@chaingate/logger";
import type { ServiceMetrics } from "@chaingate/service-kit";
import type { ResolveHost } from "../../domain/check-webhook-url.ts";
import type { Cidr } from "../../domain/forbidden-address.ts";
import type { RegistryQuotas } from "../../domain/registry-quotas.ts";
import type { DeliveryLog } from "../../infra/delivery-log.ts";
import type { EventHistory } from "../../infra/event-history.ts";
import type { WebhookRepository } from "../../infra/webhook-repository.ts";

export interface WebhookAppOptions {
  repository: WebhookRepository;
  deliveries: DeliveryLog;
  events: EventHistory;
  /** Shown with the usage on the internal quota route (the repository and the log enforce them). */
  quotas: RegistryQuotas;
  bitcoinNetwork: BitcoinNetwork;
  /** The chains webhooks may be made for: the built-in coins and EVM_CHAINS. */
  chains: ChainRegistry;
  allowCidrs: readonly Cidr[];
  resolveHost: ResolveHost;
  logger: Logger;
  /** The service's metrics registry (its own observers registered there too); one is made when absent. */
  metrics?: ServiceMetrics;
  readinessChecks: Record<string, () => Promise<unknown>>;
  degradedChecks?: Record<string, () => Promise<unknown>>;
  internalToken?: string | undefined;
  /** After a rotation the old secret keeps signing beside the new one this long (WEBHOOK_SECRET_OVERLAP_SECONDS; default 0). */
  secretOverlapSeconds?: number;
}
