/**
 * Preload for a service process: `node --import tsx --import @chaingate/telemetry/register main.ts`.
 * ESM modules can only be instrumented by a loader hook registered before they load, which is why
 * this runs as a preload and not as the first import of main.ts.
 */
import { register } from "node:module";
import { startTelemetry } from "./start-telemetry.ts";

register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);

const telemetry = startTelemetry(process.env.OTEL_SERVICE_NAME ?? "chaingate");

// Flush spans on the way out; services call process.exit after their own graceful shutdown.
process.once("beforeExit", () => void telemetry.shutdown());
