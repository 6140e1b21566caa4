/**
 * TRC-10 token metadata by id. An issued asset's name, abbreviation and precision never change, so
 * an entry, once read, is kept (bounded: the oldest entries leave first) and concurrent requests for
 * one id share one node call. A token the node does not know is not cached (it may be issued later).
 */

export interface Trc10Metadata {
  id: string;
  /** UTF-8 name. */
  name: string;
  /** UTF-8 abbreviation: the symbol. Empty when the issuer set none. */
  symbol: string;
  /** Decimals (java-tron's `precision`, 0 when omitted). */
  precision: number;
}

/** The port: reads one token from the node; undefined when the node does not know it. */
export type Trc10MetadataSource = (id: string, signal?: AbortSignal) => Promise<Trc10Metadata | undefined>;

export interface Trc10MetadataCache {
  get(id: string, signal?: AbortSignal): Promise<Trc10Metadata | undefined>;
  /** Reads many, at most `concurrency` node calls at a time; unknown ids are absent from the map. */
  getMany(ids: readonly string[], signal?: AbortSignal): Promise<Map<string, Trc10Metadata>>;
  readonly size: number;
}

/** Node calls in flight per request when filling the cache (an account holds up to ~300 tokens). */
export const TRC10_METADATA_CONCURRENCY = 16;

export function createTrc10MetadataCache(source: Trc10MetadataSource, maxEntries: number): Trc10MetadataCache {
  const entries = new Map<string, Trc10Metadata>();
  const inFlight = new Map<string, Promise<Trc10Metadata | undefined>>();

  async function get(id: string, signal?: AbortSignal): Promise<Trc10Metadata | undefined> {
    const cached = entries.get(id);
    if (cached) return cached;
    let pending = inFlight.get(id);
    if (!pending) {
      // Not tied to one caller's signal: another request may be waiting for the same answer.
      pending = source(id).finally(() => inFlight.delete(id));
      inFlight.set(id, pending);
    }
    const metadata = signal ? await raceAbort(pending, signal) : await pending;
    if (metadata) {
      entries.set(id, metadata);
      // A Map iterates in insertion order: the first key is the oldest entry.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    }
    return metadata;
  }

  return {
    get,
    async getMany(ids, signal) {
      const found = new Map<string, Trc10Metadata>();
      const missing = ids.filter((id) => {
        const cached = entries.get(id);
        if (cached) found.set(id, cached);
        return !cached;
      });
      let next = 0;
      const worker = async () => {
        while (next < missing.length) {
          const id = missing[next++]!;
          const metadata = await get(id, signal);
          if (metadata) found.set(id, metadata);
        }
      };
      await Promise.all(Array.from({ length: Math.min(TRC10_METADATA_CONCURRENCY, missing.length) }, worker));
      return found;
    },
    get size() {
      return entries.size;
    },
  };
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error as Error);
      },
    );
  });
}
