/** The xpub service's settings, from the environment. */
import { databaseSettings, env, natsSettings, serviceSettings } from "@chaingate/config";
import { z } from "zod";
import { bitcoinNetworkSettings } from "@chaingate/bitcoin";
import { evmChainsSetting } from "@chaingate/chain-registry";
import { MAX_ADDRESS_INDEX } from "./domain/derive-address.ts";

/**
 * Default per-key address limit. BIP44 wallets stop scanning after 20 unused addresses (the gap
 * limit), and addresses handed to customers who never pay create such gaps, so a client's wallet
 * must be set to scan far past 20 anyway; 100 000 keeps that recovery scan a matter of seconds,
 * bounds one key's history to ~10 MB of rows, and stops a runaway client loop (an address per page
 * view) long before it matters, while leaving room for years of ordinary deposits per key.
 */
export const DEFAULT_MAX_ADDRESSES_PER_KEY = 100_000;

/** Default record quota: enough for a key per customer wallet of a mid-sized merchant, small enough that one account cannot fill the table. */
export const DEFAULT_XPUB_RECORDS_PER_ACCOUNT = 1_000;

export const xpubConfigSchema = z.object({
  // Listening (internal: only the gateway calls it), logging, shutdown, the internal token
  ...serviceSettings(8102),
  ...databaseSettings(),
  // Events: address.issued for every issued address, key.moved for every operator move (relayed from outboxes; neither waits for NATS)
  ...natsSettings(),

  // Issuing
  // Picks the bech32 prefix of issued addresses.
  ...bitcoinNetworkSettings(),
  XPUB_MAX_ADDRESSES_PER_KEY: env
    .positiveInt(DEFAULT_MAX_ADDRESSES_PER_KEY)
    .pipe(z.number().max(MAX_ADDRESS_INDEX + 1))
    .describe("Addresses one key may issue (422 past it); at most 2^31, since a public key derives only the non-hardened indexes."),

  // Quotas
  QUOTA_XPUB_RECORDS_PER_ACCOUNT: env
    .positiveInt(DEFAULT_XPUB_RECORDS_PER_ACCOUNT)
    .describe("Extended-key records one account may hold (all chains together); registering one more new key is a 422."),

  // Chains: each configured EVM chain gets /api/v1/{name}/xpub (Ethereum's keys and paths)
  EVM_CHAINS: evmChainsSetting(),
});

export type XpubConfig = z.infer<typeof xpubConfigSchema>;
