import type { Kysely, Transaction } from "kysely";
import type { DeliveryDatabase } from "../database-schema.ts";
import type { RegistryQuotas } from "../../domain/registry-quotas.ts";

/** What the registry's writes share: the database, the doorbell rung after each commit, and the quotas they enforce. */
export interface WebhookRepositoryContext {
  db: Kysely<DeliveryDatabase>;
  /** Rung after every committed write (the watch-feed relay looks at the outbox then). */
  onChange: () => void;
  quotas: RegistryQuotas;
}

/** Runs `work` in one transaction and, once it committed, rings `onChange`. */
export async function committed<T>(
  context: WebhookRepositoryContext,
  work: (trx: Transaction<DeliveryDatabase>) => Promise<T>,
): Promise<T> {
  const result = await context.db.transaction().execute(work);
  context.onChange();
  return result;
}
