/** Preload for the gateway, an edge that forwards requests: no per-request HTTP spans (see TelemetryOptions). */
import { preloadTelemetry } from "./preload-telemetry.ts";

await preloadTelemetry({ instrumentHttp: false });
