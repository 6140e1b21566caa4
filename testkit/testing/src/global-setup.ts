/** vitest global set-up: finds (or starts) Postgres and NATS once, for every test file. */
import { provideTestInfrastructure } from "./infrastructure.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const infrastructure = await provideTestInfrastructure();
  // Workers are forked after this runs and inherit the environment.
  process.env.DATABASE_URL = infrastructure.databaseUrl;
  process.env.NATS_URL = infrastructure.natsUrl;
  return () => infrastructure.stop();
}
