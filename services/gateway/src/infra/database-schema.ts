/** The gateway's tables (schema `gateway`), as kysely sees them. */
import type { ColumnType, Generated } from "kysely";

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  created_at: ColumnType<Date, never, never>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  /** First 8 characters of the key, public: finds the row, shown in listings. */
  prefix: string;
  /** SHA-256 of the whole key. */
  secret_hash: Buffer;
  name: string | null;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, never, never>;
  deactivated_at: ColumnType<Date | null, never, Date | null>;
}

export interface ApiKeyUsageTable {
  api_key_id: number;
  day: ColumnType<string, string, string>;
  endpoint_group: string;
  request_count: ColumnType<number, number, number>;
}

/** The opt-in rate limit's shared bucket of one key (see shared-rate-limit.ts). */
export interface KeyRateBucketsTable {
  api_key_id: number;
  tokens: number;
  refilled_at: Date;
}

/** The opt-in rate limit's shared bucket of one account, over all its keys (see shared-rate-limit.ts). */
export interface AccountRateBucketsTable {
  account_id: number;
  tokens: number;
  refilled_at: Date;
}

export interface GatewayDatabase {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  api_key_usage: ApiKeyUsageTable;
  key_rate_buckets: KeyRateBucketsTable;
  account_rate_buckets: AccountRateBucketsTable;
}

export const GATEWAY_SCHEMA = "gateway";
/** Postgres NOTIFY channel: payload is the prefix of a key that was created or changed. */
export const API_KEYS_CHANNEL = "chaingate_api_keys";
