import type { MigrationList } from "@chaingate/db";
import * as keysAndAddresses from "./0001-keys-and-addresses.ts";
import * as chainPerRecord from "./0002-chain-per-record.ts";
import * as addressOutbox from "./0003-address-outbox.ts";
import * as oneAccountPerKey from "./0004-one-account-per-key.ts";
import * as keyMoves from "./0005-key-moves.ts";
import * as keyMoveOutbox from "./0006-key-move-outbox.ts";
import * as evmChains from "./0007-evm-chains.ts";

/** The xpub schema's migrations, applied in name order at start-up. */
export const xpubMigrations: MigrationList = {
  "0001-keys-and-addresses": keysAndAddresses,
  "0002-chain-per-record": chainPerRecord,
  "0003-address-outbox": addressOutbox,
  "0004-one-account-per-key": oneAccountPerKey,
  "0005-key-moves": keyMoves,
  "0006-key-move-outbox": keyMoveOutbox,
  "0007-evm-chains": evmChains,
};
