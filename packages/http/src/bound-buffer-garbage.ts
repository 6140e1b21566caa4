/**
 * Keeps dead socket-read buffers from piling up while large bodies stream through a service
 * (the gateway's proxied answers, the chain proxies' blocks and JSON-RPC answers).
 *
 * Each 64 KB read of a proxied body is an ArrayBuffer that is garbage as soon as it is written on.
 * V8 frees it at the next scavenge, but a streaming hop allocates so little JavaScript per chunk
 * that no scavenge runs during a transfer, and V8's own trigger for ArrayBuffer memory sits 64 MB
 * above the last GC: measured, a 10 MB body left 10 MB of dead buffers resident, two left 20 MB.
 * Counting forwarded bytes and asking for an asynchronous minor GC every `thresholdBytes` (2 MB) bounds
 * them; a small-body workload reaches the threshold once per tens of thousands of requests.
 */
import { z } from "zod";
import type { ServerResponse } from "node:http";
import { createGcNudge } from "./gc-nudge.ts";

export const DEFAULT_GARBAGE_THRESHOLD_BYTES = 2 * 1024 * 1024;

/** The `GC_NUDGE_BYTES` setting of every service that streams bodies through; `counted` says which bytes it counts. */
export function gcNudgeBytesSetting(counted: string) {
  return z.coerce
    .number()
    .int()
    .nonnegative()
    .default(DEFAULT_GARBAGE_THRESHOLD_BYTES)
    .describe(`${counted} between two minor GCs (needs --expose-gc, set by the start script); 0 turns it off.`);
}
/** Responses announced smaller than this are not counted (no per-chunk work for them). */
const LARGE_BODY_BYTES = 256 * 1024;

export interface BufferGarbageBound {
  /** false when the process runs without `--expose-gc`: nothing is counted. */
  enabled: boolean;
  /** Counts what `res` writes, if its body may be large. */
  watch(res: ServerResponse, contentLength: string | string[] | undefined): void;
}

export function createBufferGarbageBound(thresholdBytes = DEFAULT_GARBAGE_THRESHOLD_BYTES): BufferGarbageBound {
  if (!(globalThis as { gc?: unknown }).gc || thresholdBytes <= 0) return { enabled: false, watch: () => {} };
  const nudge = createGcNudge("minor", thresholdBytes);
  return {
    enabled: true,
    watch(res, contentLength) {
      if (contentLength !== undefined && Number(contentLength) < LARGE_BODY_BYTES) return;
      const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        nudge.count((chunk as { length?: number }).length ?? 0);
        return write(chunk, ...rest);
      }) as ServerResponse["write"];
    },
  };
}
