/** vitest global set-up: finds (or starts) Postgres and NATS once, for every test file. */
import { provideTestInfrastructure } from "./infrastructure.ts";
import { pruneTestStreams } from "./prune-test-streams.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const infrastructure = await provideTestInfrastructure();
  // Workers are forked after this runs and inherit the environment.
  process.env.DATABASE_URL = infrastructure.databaseUrl;
  process.env.NATS_URL = infrastructure.natsUrl;
  // Earlier runs' streams (never this run's, nor a dev stack's): see prune-test-streams.ts.
  const pruned = await pruneTestStreams(infrastructure.natsUrl);
  if (pruned) process.stdout.write(`[global-setup] deleted ${pruned} JetStream streams left by earlier test runs\n`);
  return () => infrastructure.stop();
}
