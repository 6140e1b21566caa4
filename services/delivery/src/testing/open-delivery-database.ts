/** The delivery's schema, migrated, over a test database, without the service (bench helpers). */
import type { Database } from "@chaingate/db";
import { openServiceDatabase } from "@chaingate/service-kit";
import { silentLogger } from "@chaingate/testing";
import { DELIVERY_SCHEMA, type DeliveryDatabase } from "../infra/database-schema.ts";
import { deliveryMigrations } from "../infra/migrations/index.ts";

export function openDeliveryDatabase(databaseUrl: string, applicationName: string): Promise<Database<DeliveryDatabase>> {
  return openServiceDatabase<DeliveryDatabase>({
    settings: { DATABASE_URL: databaseUrl },
    schema: DELIVERY_SCHEMA,
    migrations: deliveryMigrations,
    applicationName,
    logger: silentLogger,
  });
}
