export { provideTestInfrastructure, type TestInfrastructure } from "./infrastructure.ts";
export { createTestDatabase, type TestDatabase } from "./create-test-database.ts";
export { startLitecoindRegtest, DEV_LITECOIND_OPTIONS, LitecoindRpcError, type LitecoindRegtest, type LitecoindRegtestOptions } from "./litecoind-regtest.ts";
