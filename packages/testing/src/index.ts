export { provideTestInfrastructure, type TestInfrastructure } from "./infrastructure.ts";
export { createTestDatabase, type TestDatabase } from "./create-test-database.ts";
