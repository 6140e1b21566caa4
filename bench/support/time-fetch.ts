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

const MB = 1024 * 1024;

/**
 * The block benches' verdict, one implementation for every chain: two warm-up fetches through the
 * gateway (the first large bodies a process handles size its heap and buffers once; a long-running
 * service lives in the regime after that), three direct node calls, three more gateway fetches
 * measured. Prints time to first byte and peak RSS growth of `services` ([proxy, gateway]) against
 * the targets (TTFB < 2x direct; growth < the block's size) and returns whether both are met.
 */
export async function judgeBlockStreaming(
  options: {
    proxyName: string;
    services: ReadonlyArray<{ resetPeakMemory(): void; memory(): { rss: number; peakRss: number } }>;
    direct: () => Promise<Timing>;
    viaGateway: () => Promise<Timing>;
  },
  describeBlock: (blockMb: number, directMb: number) => string,
): Promise<boolean> {
  const { proxyName, services, direct, viaGateway } = options;
  const measure = async () => {
    for (const service of services) service.resetPeakMemory();
    const before = services.map((s) => s.memory().rss);
    const timing = await viaGateway();
    const growth = services.map((s, i) => (s.memory().peakRss - before[i]!) / MB);
    return { timing, proxyGrowth: growth[0]!, gatewayGrowth: growth[1]! };
  };
  const warmups = [await measure(), await measure()];
  const directTimings = [await direct(), await direct(), await direct()];
  const later = [await measure(), await measure(), await measure()];
  const directTtfb = Math.min(...directTimings.map((t) => t.ttfbMs));
  const gatewayTtfb = Math.min(...later.map((l) => l.timing.ttfbMs));
  const blockMb = later[0]!.timing.bytes / MB;
  const worstSteadyGrowth = Math.max(...later.flatMap((l) => [l.proxyGrowth, l.gatewayGrowth]));
  const growths = (runs: typeof later, key: "proxyGrowth" | "gatewayGrowth") => runs.map((run) => run[key].toFixed(1)).join(" / ");

  console.log(describeBlock(blockMb, directTimings[0]!.bytes / MB));
  console.log(
    `time to first byte: direct ${directTtfb.toFixed(1)} ms, through gateway ${gatewayTtfb.toFixed(1)} ms (${(gatewayTtfb / directTtfb).toFixed(2)}x)   target < 2x   ${gatewayTtfb < 2 * directTtfb ? "PASS" : "FAIL"}`,
  );
  console.log(
    `total time: direct ${Math.min(...directTimings.map((t) => t.totalMs)).toFixed(1)} ms, through gateway ${Math.min(...later.map((l) => l.timing.totalMs)).toFixed(1)} ms`,
  );
  console.log(
    `peak RSS growth (first two large bodies in each process, heap sizing included): ${proxyName} ${growths(warmups, "proxyGrowth")} MB, gateway ${growths(warmups, "gatewayGrowth")} MB`,
  );
  console.log(
    `peak RSS growth (the three fetches after): ${proxyName} ${growths(later, "proxyGrowth")} MB, gateway ${growths(later, "gatewayGrowth")} MB   target < block size ${blockMb.toFixed(2)} MB   ${worstSteadyGrowth < blockMb ? "PASS" : "FAIL"}`,
  );
  return gatewayTtfb < 2 * directTtfb && worstSteadyGrowth < blockMb;
}
