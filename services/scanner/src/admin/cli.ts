/**
 * The scanner's operator CLI, on the scanner's own database (DATABASE_URL, schema `scanner`; the
 * gateway is not needed):
 *   pnpm --silent scanner-admin status                                → each chain's identity, cursor, kept blocks, pending matches, pending reset
 *   pnpm --silent scanner-admin reset --chain ETH --from tip|<height>  → forgets the chain's cursor, kept blocks and matches; follows from there
 * A reset is a request: the scanner holding the chain's lease applies it within SCANNER_RESET_POLL_MS
 * (stopped or running, no restart), or at its next start; it also adopts the chain identity of the
 * node it then meets, so a follower stopped on a wrong chain resumes.
 */
import { parseArgs } from "node:util";
import { COIN_PATTERN, COINS, type Coin } from "@chaingate/contracts";
import { openServiceDatabase } from "@chaingate/service-kit";
import { sql, type Kysely } from "kysely";
import { SCANNER_SCHEMA, type ScannerDatabase } from "../infra/database-schema.ts";
import { createPostgresChainStateStore, type ChainStateDatabase } from "../infra/follower-state.ts";
import { scannerMigrations } from "../infra/migrations/index.ts";

const USAGE = `usage: scanner-admin <command>
  status
  reset --chain BTC|ETH|TRX --from tip|HEIGHT`;

const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { chain: { type: "string" }, from: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const command = positionals.join(" ");
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (command !== "status" && command !== "reset") throw new UsageError(`unknown command: ${command}`);
  const reset = command === "reset" ? parseReset(values.chain, values.from) : undefined;
  const database = await openServiceDatabase<ScannerDatabase>({
    settings: { DATABASE_URL: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, DATABASE_POOL_SIZE: 2 },
    schema: SCANNER_SCHEMA,
    migrations: scannerMigrations,
    applicationName: "chaingate-scanner-admin",
  });
  try {
    if (reset) {
      await createPostgresChainStateStore(database.db).requestReset(reset.coin, reset.from);
      const where = reset.from === undefined ? "the node's tip" : `block ${reset.from}`;
      console.log(
        `reset of ${reset.coin} requested: the scanner holding its lease forgets the cursor, kept blocks and pending matches and follows the node's chain from ${where} (within SCANNER_RESET_POLL_MS, or at its next start)`,
      );
      return;
    }
    await printStatus(database.db as unknown as Kysely<ChainStateDatabase>);
  } finally {
    await database.close();
  }
}

function parseReset(chain: string | undefined, from: string | undefined): { coin: Coin; from: number | undefined } {
  const coin = chain?.toUpperCase();
  // A built-in coin or a configured EVM chain's (its name in capitals).
  if (coin === undefined || !COIN_PATTERN.test(coin))
    throw new UsageError(`reset needs --chain ${COINS.join("|")} or a configured EVM chain`);
  if (from !== "tip" && !/^\d{1,15}$/.test(from ?? "")) throw new UsageError("reset needs --from tip or --from HEIGHT (a block height)");
  return { coin: coin as Coin, from: from === "tip" ? undefined : Number(from) };
}

async function printStatus(db: Kysely<ChainStateDatabase>): Promise<void> {
  const { rows } = await sql<{
    coin: string;
    identity: string | null;
    cursor: string | null;
    kept: string;
    pending: string;
    reset: string | null;
  }>`
    select c.coin, s.identity,
      (select height || ' ' || hash from blocks b where b.coin = c.coin order by height desc limit 1) as cursor,
      (select count(*) from blocks b where b.coin = c.coin) as kept,
      (select count(*) from matches m where m.coin = c.coin and m.published_confirmations is null) as pending,
      case when s.reset_requested > s.reset_applied then coalesce(s.reset_from::text, 'tip') end as reset
    from (select unnest(${COINS}::text[]) as coin union select coin from chain_state) as c left join chain_state s on s.coin = c.coin
    order by c.coin`.execute(db);
  console.log(["chain", "identity", "cursor", "kept_blocks", "pending_matches", "reset_pending_from"].join("\t"));
  for (const row of rows) console.log([row.coin, row.identity ?? "", row.cursor ?? "", row.kept, row.pending, row.reset ?? ""].join("\t"));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
  else console.error(error);
  process.exitCode = error instanceof UsageError ? 64 : 1;
});
