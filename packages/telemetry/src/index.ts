export { skipTracing, startTelemetry, type Telemetry } from "./start-telemetry.ts";
