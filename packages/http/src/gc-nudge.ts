/**
 * Asks V8 for a GC every so many bytes a process pushes through, where its own triggers come too
 * late for memory to stay flat:
 * - **minor** (bound-buffer-garbage.ts): the dead 64 KB read buffers of bodies streamed through a
 *   hop, which allocates too little JavaScript for a scavenge to run during a transfer;
 * - **major**: the old-generation garbage of large answers built from database rows (a webhook's
 *   million addresses, streamed a thousand at a time, or a hundred pages of ten thousand). Each
 *   chunk of rows lives across the await of its query, survives scavenges and is promoted; V8 then
 *   lets the old generation grow far before a major GC. Measured on the delivery (Node 22, a 45 MB
 *   answer): peak RSS +57 to +193 MB per read without it, +19 MB with a major GC asked for every
 *   8 MB written. A smaller heap-growing factor (`--heap-growing-percent=20`) bounded it too, but
 *   halved the delivery's notification burst throughput: this costs only the large reads.
 */
export const DEFAULT_MAJOR_GC_NUDGE_BYTES = 8 * 1024 * 1024;

type GcType = "minor" | "major";
type Gc = (options: { type: GcType; execution: "async" }) => void;

export interface GcNudge {
  /** Counts `bytes` pushed through; asks for an asynchronous GC each time the count passes the threshold. */
  count(bytes: number): void;
}

/** Counts for the whole process (concurrent bodies add up); does nothing without `--expose-gc` or with a threshold of 0. */
export function createGcNudge(type: GcType, thresholdBytes: number, gc = (globalThis as { gc?: Gc }).gc): GcNudge {
  if (!gc || thresholdBytes <= 0) return { count: () => {} };
  let sinceGc = 0;
  return {
    count(bytes) {
      sinceGc += bytes;
      if (sinceGc < thresholdBytes) return;
      sinceGc = 0;
      gc({ type, execution: "async" });
    },
  };
}

export type MajorGcNudge = GcNudge;

/** The major-GC nudge of large answers built from rows. */
export function createMajorGcNudge(thresholdBytes = DEFAULT_MAJOR_GC_NUDGE_BYTES, gc?: Gc): MajorGcNudge {
  return createGcNudge("major", thresholdBytes, gc);
}
