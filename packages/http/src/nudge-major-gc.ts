/**
 * Bounds the old-generation garbage of large answers built from database rows (a webhook's
 * million addresses, streamed a thousand at a time, or a hundred pages of ten thousand).
 *
 * Each chunk of rows lives across the await of its query, survives scavenges and is promoted; V8
 * then lets the old generation grow far before a major GC. Measured on the delivery (Node 22, a
 * 45 MB answer): peak RSS +57 to +193 MB per read without this, +19 MB with a major GC asked for
 * every 8 MB written. A smaller heap-growing factor (`--heap-growing-percent=20`) bounded it too,
 * but halved the delivery's notification burst throughput: this costs only the large reads.
 */
export const DEFAULT_MAJOR_GC_NUDGE_BYTES = 8 * 1024 * 1024;

type MajorGc = (options: { type: "major"; execution: "async" }) => void;

export interface MajorGcNudge {
  /** Counts `bytes` of answer written; asks for an asynchronous major GC each time the count passes the threshold. */
  count(bytes: number): void;
}

/** Counts for the whole process (concurrent answers add up); does nothing without `--expose-gc`. */
export function createMajorGcNudge(thresholdBytes = DEFAULT_MAJOR_GC_NUDGE_BYTES, gc = (globalThis as { gc?: MajorGc }).gc): MajorGcNudge {
  if (!gc || thresholdBytes <= 0) return { count: () => {} };
  let sinceGc = 0;
  return {
    count(bytes) {
      sinceGc += bytes;
      if (sinceGc < thresholdBytes) return;
      sinceGc = 0;
      gc({ type: "major", execution: "async" });
    },
  };
}
