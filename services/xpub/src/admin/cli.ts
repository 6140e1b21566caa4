/**
 * The xpub service's operator CLI, on the xpub service's own database (DATABASE_URL, schema `xpub`;
 * migrates it first, so it works before the service has ever started):
 *   pnpm --silent xpub-admin keys find --xpub KEY                 → the records of the key (either chain): id, account, issued count, moves
 *   pnpm --silent xpub-admin keys move --id ID --to-account ID    → hands the record, its counter and its issued addresses to the account
 * One key, one account: a key registered by the wrong account (a squatter, a mix-up) is moved to
 * its rightful account, never registered twice; see docs/operations/admin.md, "xpub".
 */
import { parseArgs } from "node:util";
import { openServiceDatabase } from "@chaingate/service-kit";
import { XPUB_SCHEMA, type XpubDatabase } from "../infra/database-schema.ts";
import { findKeyRecords } from "../infra/find-key-records.ts";
import { xpubMigrations } from "../infra/migrations/index.ts";
import { moveKeyRecord, type MovedKeyRecord } from "../infra/move-key-record.ts";
import { readAccountKeyMaterial, UnreadableAccountKeyError } from "./read-account-key.ts";

const USAGE = `usage: xpub-admin <command>
  keys find --xpub KEY
  keys move --id RECORD_ID --to-account ACCOUNT_ID`;

const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";
/** A chain's xpub path: its coin in lower case (`/api/v1/btc/xpub`, `/api/v1/polygon/xpub`). */
const apiPath = (chain: string) => `/api/v1/${chain.toLowerCase()}/xpub`;

class UsageError extends Error {}
/** A refusal the operator reads (exit 1), not a fault. */
class RefusedError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseOptions(argv);
  const command = positionals.join(" ");
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (command !== "keys find" && command !== "keys move") throw new UsageError(`unknown command: ${command}`);
  // Arguments are checked before the database is opened: a typo costs no connection.
  const keyMaterial = command === "keys find" ? readAccountKeyMaterial(required(values.xpub, "keys find needs --xpub KEY")) : undefined;
  const move =
    command === "keys move"
      ? { id: requireId(values.id, "--id"), toAccountId: requireId(values["to-account"], "--to-account") }
      : undefined;

  const database = await openServiceDatabase<XpubDatabase>({
    settings: { DATABASE_URL: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, DATABASE_POOL_SIZE: 2 },
    schema: XPUB_SCHEMA,
    migrations: xpubMigrations,
    applicationName: "chaingate-xpub-admin",
  });
  try {
    if (keyMaterial !== undefined) {
      const { records, moves } = await findKeyRecords(database.db, keyMaterial);
      console.log(["id", "account", "chain", "issued_count", "duplicate_of", "label", "created_at"].join("\t"));
      for (const r of records) {
        console.log(
          [r.id, r.account_id, r.chain, r.next_index, r.duplicate_of ?? "", r.label ?? "", r.created_at.toISOString()].join("\t"),
        );
      }
      if (!records.length) console.log("# no record holds this key");
      for (const m of moves) {
        console.log(
          `# record ${m.key_id} moved from account ${m.from_account_id} to account ${m.to_account_id} at ${m.moved_at.toISOString()} (next index ${m.next_index})`,
        );
      }
      return;
    }
    const result = await moveKeyRecord(database.db, move!);
    switch (result.outcome) {
      case "moved":
        printMoved(result.record);
        return;
      case "already_there":
        console.log(`record ${move!.id} already belongs to account ${move!.toAccountId}; nothing changed`);
        return;
      case "not_found":
        throw new RefusedError(`No xpub record with id ${move!.id}.`);
      case "flagged_duplicate":
        throw new RefusedError(
          `Record ${move!.id} is flagged as a duplicate of record ${result.holderId} (migration 0004): it holds no key and issues nothing. The key is record ${result.holderId}'s.`,
        );
      case "target_holds_duplicate":
        throw new RefusedError(
          `Account ${move!.toAccountId} already has record ${result.duplicateId} of this key, flagged as a duplicate (migration 0004), and an account holds one record per key; merging the two is not supported (docs/operations/admin.md, "xpub"). Nothing changed.`,
        );
    }
  } finally {
    await database.close();
  }
}

/** What changed, and what it means for the two accounts and their webhooks. */
function printMoved(record: MovedKeyRecord): void {
  const { id, chain, fromAccountId: from, toAccountId: to, nextIndex, addresses } = record;
  console.log(
    `moved record ${id} (${chain}, ${addresses} addresses issued, next index ${nextIndex}) from account ${from} to account ${to}`,
  );
  console.log(
    `# account ${from} now gets 404 for record ${id}; account ${to} lists it (GET ${apiPath(chain)}) and issues from index ${nextIndex} on`,
  );
  console.log(
    `# webhooks: the running xpub service publishes the move (key.moved); then account ${to}'s naming record ${id} in xpub_ids watch all its addresses, those issued before the move too, and account ${from}'s stop watching the ones they had only through the record (see docs/operations/admin.md, "xpub")`,
  );
}

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        xpub: { type: "string" },
        id: { type: "string" },
        "to-account": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    // An unknown or valueless flag is a usage mistake, not a fault.
    throw new UsageError((error as Error).message);
  }
}

function required(value: string | undefined, message: string): string {
  if (value === undefined || value === "") throw new UsageError(message);
  return value;
}

function requireId(value: string | undefined, flag: string): number {
  if (value === undefined || !/^[0-9]{1,15}$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} needs a positive numeric id`);
  return Number(value);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
  else if (error instanceof RefusedError || error instanceof UnreadableAccountKeyError) console.error(error.message);
  else console.error(error);
  process.exitCode = error instanceof UsageError ? 64 : 1;
});
