/**
 * Reads the addresses an extended key issued from the xpub service (its address history,
 * `GET /api/v1/{chain}/xpub/{id}/addresses`, as the key's account, on the internal network), page
 * by page in index order. The xpub service owns issued addresses; the registry reads a key's
 * history once, for what was issued before it recorded `address.issued` (key-history-backfill.ts).
 */
import type { ChainRegistry } from "@chaingate/chain-registry";
import type { Coin } from "@chaingate/contracts";
import { ChaingateError } from "@chaingate/errors";
import { ACCOUNT_ID_HEADER, INTERNAL_TOKEN_HEADER } from "@chaingate/http";

/** The history endpoint's largest page. */
const HISTORY_PAGE_SIZE = 500;

export interface KeyRef {
  xpub_id: number;
  account_id: number;
  coin: Coin;
}

/** One issued address, in the form `address.issued` carries (EVM chains lower case). */
export interface HistoryEntry {
  address: string;
  index: number;
  issued_at: Date;
}

/** Pages of a key's history; none when the key is not the account's (or not of the coin). */
export type ReadKeyHistory = (key: KeyRef) => AsyncIterable<HistoryEntry[]>;

/** The xpub service did not answer a history page (down, timed out, 5xx): retry later. */
export class KeyHistoryUnavailableError extends ChaingateError {
  override name = "KeyHistoryUnavailableError" as const;
  constructor(message: string, cause?: unknown) {
    super("key_history_unavailable", message, { retryable: true, cause });
  }
}

export interface KeyHistoryReaderOptions {
  xpubUrl: string;
  /** The chains whose keys issue: their xpub path and address form (EVM: lower case); another chain's key has no history. */
  chains: Pick<ChainRegistry, "chain">;
  internalToken?: string | undefined;
  timeoutMs: number;
}

export function createKeyHistoryReader({ xpubUrl, chains, internalToken, timeoutMs }: KeyHistoryReaderOptions): ReadKeyHistory {
  return async function* readKeyHistory(key) {
    const chain = chains.chain(key.coin);
    if (!chain || chain.kind === "tron") return;
    const path = `/api/v1/${chain.prefix}/xpub`;
    const lowerCase = chain.kind === "evm";
    for (let page = 1; ; page++) {
      const url = new URL(`${path}/${key.xpub_id}/addresses?page=${page}&per_page=${HISTORY_PAGE_SIZE}`, xpubUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          headers: {
            accept: "application/json",
            [ACCOUNT_ID_HEADER]: String(key.account_id),
            ...(internalToken ? { [INTERNAL_TOKEN_HEADER]: internalToken } : {}),
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new KeyHistoryUnavailableError(`xpub service unreachable at ${url.origin}`, error);
      }
      if (response.status === 404) return;
      if (!response.ok) throw new KeyHistoryUnavailableError(`xpub service answered ${response.status} for key ${key.xpub_id}'s history`);
      const { data, meta } = (await response.json()) as {
        data: Array<{ address: string; index: number; created_at: string }>;
        meta: { last_page: number };
      };
      yield data.map((entry) => ({
        address: lowerCase ? entry.address.toLowerCase() : entry.address,
        index: entry.index,
        issued_at: new Date(entry.created_at),
      }));
      if (page >= meta.last_page) return;
    }
  };
}
