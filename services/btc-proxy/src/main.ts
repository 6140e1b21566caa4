/** The btc-proxy process: everything under /api/v1/btc except xpub, in front of Bitcoin nodes. */
import { runService } from "@chaingate/service-kit";
import { btcProxyConfigSchema } from "./config.ts";
import { createBtcProxy } from "./create-btc-proxy.ts";

await runService("btc-proxy", btcProxyConfigSchema, createBtcProxy);
