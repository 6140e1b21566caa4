/**
 * What a service's preload does (`node --import @chaingate/telemetry/register src/main.ts`).
 * ESM modules can only be instrumented by a loader hook registered before they load, which is
 * why this runs as a preload and not as the first import of main.ts.
 */
import { readFileSync } from "node:fs";
import { register } from "node:module";
import { createAddHookMessageChannel } from "import-in-the-middle";
import { addFlushBeforeExit } from "./flush-before-exit.ts";
import { startTelemetry, type TelemetryOptions } from "./start-telemetry.ts";

export async function preloadTelemetry(options: TelemetryOptions = {}): Promise<void> {
  // The hook wraps only the modules an instrumentation asks for (express, pg, ...), as they ask.
  // Its default wraps every ES module the process loads, parsing each one first: about a second
  // of CPU at every start of a service.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);
  const telemetry = startTelemetry(process.env.OTEL_SERVICE_NAME || serviceNameOfPackage() || "chaingate", process.env, options);
  // The last spans are exported on the way out: services exit through process.exit() after their
  // graceful shutdown, which awaits this hook; beforeExit covers a process that simply ends.
  addFlushBeforeExit(() => telemetry.shutdown());
  process.once("beforeExit", () => void telemetry.shutdown());
  // The instrumentations' module names reach the hook before the service's first import.
  await waitForAllMessagesAcknowledged();
}

/** Services start in their package's directory: `@chaingate/btc-proxy` names spans `btc-proxy`. */
function serviceNameOfPackage(): string | undefined {
  try {
    const { name } = JSON.parse(readFileSync("package.json", "utf8")) as { name?: string };
    return name?.replace(/^@[^/]+\//, "");
  } catch {
    return undefined;
  }
}
