/**
 * The operator CLI (replaces the spec's dashboard):
 *   pnpm --silent admin accounts create --name N          → prints the account id
 *   pnpm --silent admin keys create --account ID [--name N] → prints the key alone on the last line
 *   pnpm --silent admin keys list [--account ID]
 *   pnpm --silent admin keys deactivate (--id ID | --prefix P)
 *   pnpm --silent admin usage [--account ID] [--since YYYY-MM-DD]
 *   pnpm --silent admin quotas --account ID                → usage vs quota: the gateway's, then the delivery and xpub services'
 * Reads DATABASE_URL (default: the loopback Postgres); migrates the gateway schema first. `quotas`
 * also reads QUOTA_API_KEYS_PER_ACCOUNT (as the gateway's; default 100), DELIVERY_URL, XPUB_URL
 * (defaults: the dev stack's loopback ports) and INTERNAL_TOKEN. The operator's `keys create` is
 * not held to the key quota (it binds what an account does for itself through the API).
 */
import { parseArgs } from "node:util";
import { openServiceDatabase } from "@chaingate/service-kit";
import { gatewayConfigSchema } from "../config.ts";
import { API_KEY_QUOTA_SETTING } from "../domain/api-key-quota.ts";
import { AccountAdminError, createAccountAdmin } from "../infra/account-admin.ts";
import { GATEWAY_SCHEMA, type GatewayDatabase } from "../infra/database-schema.ts";
import { gatewayMigrations } from "../infra/migrations/index.ts";
import { readQuotaUsage } from "./read-quota-usage.ts";

const USAGE = `usage: admin <command>
  accounts create --name NAME
  keys create --account ID [--name NAME]
  keys list [--account ID]
  keys deactivate (--id ID | --prefix PREFIX)
  usage [--account ID] [--since YYYY-MM-DD]
  quotas --account ID`;

const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";
/** The services' default ports (serviceSettings in their config.ts), on loopback as in the dev stack. */
const DEFAULT_DELIVERY_URL = "http://127.0.0.1:8103";
const DEFAULT_XPUB_URL = "http://127.0.0.1:8102";

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      account: { type: "string" },
      id: { type: "string" },
      prefix: { type: "string" },
      since: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals.join(" ");
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const database = await openServiceDatabase<GatewayDatabase>({
    settings: { DATABASE_URL: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, DATABASE_POOL_SIZE: 2 },
    schema: GATEWAY_SCHEMA,
    migrations: gatewayMigrations,
    applicationName: "chaingate-admin",
  });
  try {
    const admin = createAccountAdmin(database.db);
    switch (command) {
      case "accounts create": {
        if (!values.name) throw new UsageError("accounts create needs --name");
        console.log(await admin.createAccount(values.name));
        return;
      }
      case "keys create": {
        const created = await admin.createApiKey(requireId(values.account, "--account"), values.name ?? null);
        console.log(`# key ${created.id} (prefix ${created.prefix}) for account ${created.accountId}; shown once, store it now:`);
        console.log(created.key);
        return;
      }
      case "keys list": {
        const keys = admin.listApiKeys(values.account === undefined ? undefined : requireId(values.account, "--account"));
        console.log(["id", "account", "prefix", "name", "active", "created_at", "deactivated_at"].join("\t"));
        for await (const k of keys) {
          console.log(
            [k.id, k.account_id, k.prefix, k.name ?? "", k.active, k.created_at.toISOString(), k.deactivated_at?.toISOString() ?? ""].join(
              "\t",
            ),
          );
        }
        return;
      }
      case "keys deactivate": {
        const target = values.id !== undefined ? requireId(values.id, "--id") : values.prefix;
        if (target === undefined) throw new UsageError("keys deactivate needs --id or --prefix");
        const changed = await admin.deactivateApiKey(target);
        if (!changed)
          throw new AccountAdminError(`No active key ${values.id !== undefined ? `with id ${target}` : `with prefix ${target}`}.`);
        console.log(`deactivated`);
        return;
      }
      case "usage": {
        const rows = await admin.usage({
          accountId: values.account === undefined ? undefined : requireId(values.account, "--account"),
          since: values.since,
        });
        console.log(["day", "key_id", "prefix", "group", "requests"].join("\t"));
        for (const r of rows) console.log([r.day, r.api_key_id, r.prefix, r.endpoint_group, r.request_count].join("\t"));
        return;
      }
      case "quotas": {
        const accountId = requireId(values.account, "--account");
        if (!(await admin.accountExists(accountId))) throw new AccountAdminError(`No account with id ${accountId}.`);
        const services = { delivery: process.env.DELIVERY_URL ?? DEFAULT_DELIVERY_URL, xpub: process.env.XPUB_URL ?? DEFAULT_XPUB_URL };
        console.log(["service", "quota", "used", "limit"].join("\t"));
        console.log(["gateway", API_KEY_QUOTA_SETTING, await admin.activeKeyCount(accountId), apiKeyQuota()].join("\t"));
        for (const answer of await readQuotaUsage(services, accountId, process.env.INTERNAL_TOKEN)) {
          if ("error" in answer) {
            console.error(`${answer.service}: ${answer.error}`);
            process.exitCode = 1;
            continue;
          }
          for (const quota of answer.usage.quotas) console.log([answer.service, quota.setting, quota.used, quota.limit].join("\t"));
        }
        return;
      }
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } finally {
    await database.close();
  }
}

/** QUOTA_API_KEYS_PER_ACCOUNT read as the gateway reads it (same rules and default). */
function apiKeyQuota(): number {
  const read = gatewayConfigSchema.shape[API_KEY_QUOTA_SETTING].safeParse(process.env[API_KEY_QUOTA_SETTING]);
  if (!read.success) throw new UsageError(`${API_KEY_QUOTA_SETTING} must be a positive integer`);
  return read.data;
}

function requireId(value: string | undefined, flag: string): number {
  if (value === undefined || !/^\d+$/.test(value)) throw new UsageError(`${flag} needs a numeric id`);
  return Number(value);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
  else if (error instanceof AccountAdminError) console.error(error.message);
  else console.error(error);
  process.exitCode = error instanceof UsageError ? 64 : 1;
});
