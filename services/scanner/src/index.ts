export { createScannerService, type ScannerService } from "./create-scanner-service.ts";
export { scannerConfigSchema, type ScannerConfig } from "./config.ts";
export { SCANNER_SCHEMA } from "./infra/database-schema.ts";
export { CHAIN_SETTINGS, DEFAULT_CONFIRMATIONS } from "./domain/chain-settings.ts";
