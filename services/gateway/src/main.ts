/** The gateway process: the only public HTTP edge. */
import { runService } from "@chaingate/http";
import { skipTracing } from "@chaingate/telemetry";
import { gatewayConfigSchema } from "./config.ts";
import { createGateway } from "./create-gateway.ts";

// Proxied requests are traced by traceparent only; spans start in the service that owns them.
skipTracing({ incoming: (path) => path.startsWith("/api/v1/") && !path.startsWith("/api/v1/openapi.json"), outgoingUndici: true });
await runService("gateway", gatewayConfigSchema, createGateway);
