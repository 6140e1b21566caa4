/** The gateway process: the only public HTTP edge. */
import { runService } from "@chaingate/service-kit";
import { gatewayConfigSchema } from "./config.ts";
import { createGateway } from "./create-gateway.ts";

await runService("gateway", gatewayConfigSchema, createGateway);
