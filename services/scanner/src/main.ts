/** The scanner process: follows Bitcoin, Ethereum and Tron and publishes matched transfers. */
import { runService } from "@chaingate/service-kit";
import { scannerConfigSchema } from "./config.ts";
import { createScannerService } from "./create-scanner-service.ts";

await runService("scanner", scannerConfigSchema, createScannerService);
