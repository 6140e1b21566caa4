/**
 * Self time of a V8 `.cpuprofile` (node --cpu-prof): the top functions, and the totals by where
 * the code lives (node internals, a package in node_modules, the project's own files).
 * `tsx bench/gateway/summarize-cpu-profile.ts <file> [top]` or printCpuProfileSummary().
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node:internal/…, a package name from node_modules, the project path, or a V8 pseudo-frame. */
function placeOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || "anonymous"})`.replace(/^\(\((.*)\)\)$/, "($1)");
  if (url.startsWith("node:"))
    return url
      .replace(/^node:internal\//, "node:")
      .split("/")
      .slice(0, 2)
      .join("/");
  const modules = url.lastIndexOf("/node_modules/");
  if (modules !== -1) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return url.replace(/^file:\/\/.*?\/(services|packages)\//, "$1/");
}

export function printCpuProfileSummary(file: string, top = 40): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...selfUs.values()].reduce((sum, us) => sum + us, 0);
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const place = placeOf(url, functionName);
    const name = `${functionName || "(anonymous)"}  ${place}${url ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  }
  const print = (title: string, entries: Map<string, number>, count: number) => {
    console.log(`\n${title} (of ${(total / 1e6).toFixed(2)} s sampled)`);
    for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count))
      console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${name}`);
  };
  print("self time by function", byFunction, top);
  print("self time by place", byPlace, 25);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printCpuProfileSummary(process.argv[2]!, Number(process.argv[3] ?? 40));
