export { provideTestInfrastructure, type TestInfrastructure } from "./infrastructure.ts";
