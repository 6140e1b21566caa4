/** The eth-proxy process: everything under /api/v1/eth except xpub, in front of Ethereum nodes. */
import { runService } from "@chaingate/service-kit";
import { ethProxyConfigSchema } from "./config.ts";
import { createEthProxy } from "./create-eth-proxy.ts";

await runService("eth-proxy", ethProxyConfigSchema, createEthProxy);
