/** Timing of one streamed answer: how the block benches compare a call through the gateway with the node's own. */

export interface Timing {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

/** Fetches `url` and reads the body to its end without holding it: time to first byte, total time, size. Throws unless 200. */
export async function timeFetch(url: string, init: RequestInit): Promise<Timing> {
  const started = performance.now();
  const response = await fetch(url, init);
  const reader = response.body!.getReader();
  let ttfbMs = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) ttfbMs = performance.now() - started;
    bytes += value.length;
  }
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { ttfbMs, totalMs: performance.now() - started, bytes };
}
