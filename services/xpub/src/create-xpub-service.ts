/**
 * Wires the xpub service from its config: database and migrations, repository, HTTP app and
 * server. `main.ts` calls it; tests call it with their own config.
 */
import { BUILT_IN_CHAINS } from "@chaingate/chain-registry";
import { addressIssued, keyMoved } from "@chaingate/contracts";
import { connectBusInBackground, listenOptions, openServiceDatabase, serveHttpApp, type ServedApp } from "@chaingate/service-kit";
import type { Logger } from "@chaingate/logger";
import type { XpubConfig } from "./config.ts";
import { bitcoinScheme, ethereumScheme, evmScheme, type KeyScheme } from "./domain/key-scheme.ts";
import { createXpubApp, XPUB_BASE_PATH, type XpubChainRoutes } from "./http/create-xpub-app.ts";
import { XPUB_SCHEMA, type XpubDatabase } from "./infra/database-schema.ts";
import { findDuplicateKeyRecords } from "./infra/find-duplicate-key-records.ts";
import { xpubMigrations } from "./infra/migrations/index.ts";
import { startAddressIssuedRelay } from "./infra/address-issued-relay.ts";
import { startKeyMovedRelay } from "./infra/key-moved-relay.ts";
import { createXpubRepository, type XpubRepository } from "./infra/xpub-repository.ts";
import { readAccountQuotaUsage } from "./infra/account-quota-usage.ts";

export interface XpubService extends ServedApp {
  /** Publishes every issued address not yet published (tests; the relay does it on its own). */
  drainAddressEvents(): Promise<number>;
  /** Publishes every record move not yet published (tests; the relay polls for the CLI's moves). */
  drainKeyMoves(): Promise<number>;
}

/** Migrates the `xpub` schema, then serves the xpub endpoints until `close()`. */
export async function createXpubService(config: XpubConfig, logger: Logger): Promise<XpubService> {
  const database = await openServiceDatabase<XpubDatabase>({
    settings: config,
    schema: XPUB_SCHEMA,
    migrations: xpubMigrations,
    applicationName: "chaingate-xpub",
    logger,
  });
  try {
    // Said at every start until the operator resolves them (see docs/api.md, "Watch-only addresses").
    const duplicates = await findDuplicateKeyRecords(database.db);
    if (duplicates.length) {
      logger.warn(
        { records: duplicates },
        "xpub records share their key with an older record of another account; they answer 409 instead of issuing addresses",
      );
    }
  } catch (error) {
    await database.close();
    throw error;
  }

  // Issuing never waits for NATS: the outbox relay catches up once the bus is there.
  const bus = connectBusInBackground({ settings: config, name: "xpub", logger, streams: [addressIssued, keyMoved] });
  const relay = startAddressIssuedRelay({ db: database.db, publisher: bus.get, logger });
  const moves = startKeyMovedRelay({ db: database.db, publisher: bus.get, logger });

  const limit = config.XPUB_MAX_ADDRESSES_PER_KEY;
  const repositoryOf = (scheme: KeyScheme) =>
    createXpubRepository({
      db: database.db,
      scheme,
      maxAddressesPerKey: limit,
      maxRecordsPerAccount: config.QUOTA_XPUB_RECORDS_PER_ACCOUNT,
      onIssued: relay.wake,
    }) as XpubRepository;
  const bitcoin = bitcoinScheme(config.BITCOIN_NETWORK);
  const chains: XpubChainRoutes[] = [
    {
      chain: bitcoin.chain,
      basePath: XPUB_BASE_PATH,
      repository: repositoryOf(bitcoin),
      parseKey: bitcoin.parse,
      toIssued: ({ address, index, path }) => ({ address, index, path }),
      toHistoryEntry: ({ address, index, created_at }) => ({ address, index, created_at: created_at.toISOString() }),
    },
    // Ethereum, then each configured EVM chain under its own prefix: the same keys, paths and answers.
    ...[BUILT_IN_CHAINS.ETH, ...config.EVM_CHAINS.map((chain) => chain.entry)].map((entry) => {
      const scheme = entry.coin === "ETH" ? ethereumScheme : evmScheme(entry.coin, entry.coin);
      return evmChainRoutes(entry.prefix, scheme, repositoryOf(scheme));
    }),
  ];
  const http = createXpubApp({
    chains,
    logger,
    readinessChecks: { database: () => database.ping() },
    // Issuing works without NATS (the outbox waits): named, not failing readiness.
    degradedChecks: { nats: bus.ping },
    internalToken: config.INTERNAL_TOKEN,
    quotaUsage: (accountId) =>
      readAccountQuotaUsage(database.db, accountId, {
        maxRecordsPerAccount: config.QUOTA_XPUB_RECORDS_PER_ACCOUNT,
        maxAddressesPerKey: limit,
      }),
  });
  const served = await serveHttpApp(http, listenOptions(config, logger), async () => {
    await relay.stop();
    await moves.stop();
    await bus.close();
    await database.close();
  });
  return { ...served, drainAddressEvents: () => relay.drain(), drainKeyMoves: () => moves.drain() };
}

/** An EVM chain's routes under `/api/v1/{prefix}/xpub`: addresses answered checksummed and lower-cased. */
function evmChainRoutes(prefix: string, scheme: KeyScheme, repository: XpubRepository): XpubChainRoutes {
  return {
    chain: scheme.chain,
    basePath: `/api/v1/${prefix}/xpub`,
    repository,
    parseKey: scheme.parse,
    toIssued: ({ address, index, path }) => ({ address, address_lowercase: address.toLowerCase(), index, path }),
    toHistoryEntry: ({ address, index, created_at }) => ({
      address,
      address_lowercase: address.toLowerCase(),
      index,
      created_at: created_at.toISOString(),
    }),
  };
}
