export { createAccountWithKey, runAdminCli } from "./run-admin-cli.ts";
export { startTestGateway, type TestGateway } from "./start-test-gateway.ts";
