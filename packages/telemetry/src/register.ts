/** Preload for a service: every instrumentation. */
import { preloadTelemetry } from "./preload-telemetry.ts";

await preloadTelemetry();
