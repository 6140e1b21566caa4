/** The trx-proxy process: everything under /api/v1/trx, in front of java-tron full nodes. */
import { runService } from "@chaingate/service-kit";
import { trxProxyConfigSchema } from "./config.ts";
import { createTrxProxy } from "./create-trx-proxy.ts";

await runService("trx-proxy", trxProxyConfigSchema, createTrxProxy);
