/** Each area of the API registers its own paths; adding an area means adding it here. */
import { registerBtcPaths } from "../api/btc.ts";
import { registerXpubPaths } from "../api/xpub.ts";
import { registerTrxPaths } from "../api/trx.ts";
import { registerEthPaths } from "../api/eth.ts";
import { registerEvmChainPaths } from "../api/evm-chains.ts";
import { registerDeliveryPaths, registerNotificationWebhooks, registerWebhookPaths } from "../api/webhooks.ts";
import { registerAccountPaths, registerOperatorPaths } from "../api/account.ts";
import { registerChainPaths } from "../api/chains.ts";
import type { OpenAPIRegistry } from "./openapi-registry.ts";

export const AREAS: ReadonlyArray<(registry: OpenAPIRegistry) => void> = [
  registerBtcPaths,
  registerXpubPaths,
  registerTrxPaths,
  registerEthPaths,
  registerEvmChainPaths,
  registerWebhookPaths,
  registerDeliveryPaths,
  registerNotificationWebhooks,
  registerChainPaths,
  registerAccountPaths,
  registerOperatorPaths,
];
