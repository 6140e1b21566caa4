export { startTelemetry, type Telemetry, type TelemetryOptions } from "./start-telemetry.ts";
export { addFlushBeforeExit } from "./flush-before-exit.ts";
