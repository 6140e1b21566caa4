/**
 * What a service's preload does (`node --import tsx --import @chaingate/telemetry/register …`).
 * ESM modules can only be instrumented by a loader hook registered before they load, which is
 * why this runs as a preload and not as the first import of main.ts.
 */
import { register } from "node:module";
import { startTelemetry, type TelemetryOptions } from "./start-telemetry.ts";

export function preloadTelemetry(options: TelemetryOptions = {}): void {
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  const telemetry = startTelemetry(process.env.OTEL_SERVICE_NAME ?? "chaingate", process.env, options);
  // Flush spans on the way out; services call process.exit after their own graceful shutdown.
  process.once("beforeExit", () => void telemetry.shutdown());
}
