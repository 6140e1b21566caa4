import { sql } from "kysely";

/** Whether address row `a` was issued by one of the current keys of webhook row `w`. */
export const issuedByCurrentKey = sql<boolean>`exists (select 1 from issued_addresses i
   where i.xpub_id = any(w.xpub_ids) and i.address = a.address and i.account_id = w.account_id and i.coin = w.coin)`;
