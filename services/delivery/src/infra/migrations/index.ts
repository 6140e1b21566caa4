import type { MigrationList } from "@chaingate/db";
import * as registry from "./0001-registry.ts";

/** The delivery schema's migrations, applied in name order at start-up. */
export const deliveryMigrations: MigrationList = {
  "0001-registry": registry,
};
