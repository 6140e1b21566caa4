export { createAccountWithKey, runAdminCli } from "./run-admin-cli.ts";
export { silentLogger, startTestGateway, type TestGateway } from "./start-test-gateway.ts";
export { freePort, spawnService, waitForHttp, type SpawnedService } from "./spawn-service.ts";
