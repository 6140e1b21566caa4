export { startTelemetry, type Telemetry } from "./start-telemetry.ts";
