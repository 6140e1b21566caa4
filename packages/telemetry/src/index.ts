export { startTelemetry, type Telemetry, type TelemetryOptions } from "./start-telemetry.ts";
