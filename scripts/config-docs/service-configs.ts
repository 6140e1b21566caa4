/** Every service's configuration schema, in the order the configuration page lists them. */
import type { z } from "zod";
import { btcProxyConfigSchema } from "@chaingate/btc-proxy";
import { deliveryConfigSchema } from "@chaingate/delivery";
import { ethProxyConfigSchema } from "@chaingate/eth-proxy";
import { gatewayConfigSchema } from "@chaingate/gateway";
import { scannerConfigSchema } from "@chaingate/scanner";
import { trxProxyConfigSchema } from "@chaingate/trx-proxy";
import { xpubConfigSchema } from "@chaingate/xpub";

export interface ServiceConfig {
  service: string;
  /** The file that defines the schema, from the repository root. */
  file: string;
  exportName: string;
  schema: z.ZodObject;
}

export const SERVICE_CONFIGS: ServiceConfig[] = [
  { service: "gateway", file: "services/gateway/src/config.ts", exportName: "gatewayConfigSchema", schema: gatewayConfigSchema },
  { service: "btc-proxy", file: "services/btc-proxy/src/config.ts", exportName: "btcProxyConfigSchema", schema: btcProxyConfigSchema },
  { service: "eth-proxy", file: "services/eth-proxy/src/config.ts", exportName: "ethProxyConfigSchema", schema: ethProxyConfigSchema },
  { service: "trx-proxy", file: "services/trx-proxy/src/config.ts", exportName: "trxProxyConfigSchema", schema: trxProxyConfigSchema },
  { service: "xpub", file: "services/xpub/src/config.ts", exportName: "xpubConfigSchema", schema: xpubConfigSchema },
  { service: "delivery", file: "services/delivery/src/config.ts", exportName: "deliveryConfigSchema", schema: deliveryConfigSchema },
  { service: "scanner", file: "services/scanner/src/config.ts", exportName: "scannerConfigSchema", schema: scannerConfigSchema },
];
