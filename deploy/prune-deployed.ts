/**
 * Trims a `pnpm deploy --prod` output (hoisted node_modules) to what the compiled service loads:
 * the packages in dist/externals.json (written by scripts/build.ts) and, transitively, their
 * dependencies, optional dependencies and installed required peers. Everything else goes (workspace packages
 * are bundled into dist/, and a runtime dependency that only tests use, like @chaingate/testing
 * with testcontainers, is never loaded), as does the TypeScript source.
 *
 *   tsx deploy/prune-deployed.ts <deployed dir>
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Node's lookup: <dir>/node_modules/<name>, then each parent's, up to the deployed root. */
function resolvePackage(name: string, fromDir: string, root: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === root || !dir.startsWith(root)) return undefined;
  }
}

/** The package directories the given entry packages need, transitively. */
export function neededPackages(root: string, entries: string[]): Set<string> {
  const needed = new Set<string>();
  const missing: string[] = [];
  const visit = (name: string, fromDir: string, optional: boolean) => {
    const dir = resolvePackage(name, fromDir, root);
    if (!dir) {
      if (!optional) missing.push(`${name} (from ${path.relative(root, fromDir) || "."})`);
      return;
    }
    if (needed.has(dir)) return;
    needed.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir, false);
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) visit(dependency, dir, true);
    // Required peers only: an optional peer (valibot's typescript) is there for types, not for running.
    for (const dependency of Object.keys(manifest.peerDependencies ?? {})) {
      if (!manifest.peerDependenciesMeta?.[dependency]?.optional) visit(dependency, dir, true);
    }
  };
  for (const entry of entries) visit(entry, root, false);
  if (missing.length) throw new Error(`not installed in ${root}: ${missing.join(", ")}`);
  return needed;
}

/** Every package directory under a node_modules folder, nested ones included. */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith(".")) continue;
    const full = path.join(nodeModules, entry);
    if (entry.startsWith("@")) {
      for (const scoped of readdirSync(full)) found.push(path.join(full, scoped));
    } else {
      found.push(full);
    }
  }
  return found.flatMap((dir) => [dir, ...installedPackages(path.join(dir, "node_modules"))]);
}

export function pruneDeployed(root: string): { kept: number; removed: number } {
  const entries = JSON.parse(readFileSync(path.join(root, "dist", "externals.json"), "utf8")) as string[];
  const needed = neededPackages(root, entries);
  let removed = 0;
  for (const dir of installedPackages(path.join(root, "node_modules"))) {
    if (!needed.has(dir) && existsSync(dir)) {
      rmSync(dir, { recursive: true, force: true });
      removed++;
    }
  }
  // Empty scope folders and the bin links of removed packages.
  for (const entry of readdirSync(path.join(root, "node_modules"))) {
    const full = path.join(root, "node_modules", entry);
    if (entry.startsWith("@") && statSync(full).isDirectory() && readdirSync(full).length === 0) rmSync(full, { recursive: true });
  }
  rmSync(path.join(root, "node_modules", ".bin"), { recursive: true, force: true });
  rmSync(path.join(root, "src"), { recursive: true, force: true });
  return { kept: needed.size, removed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? ".");
  const { kept, removed } = pruneDeployed(root);
  process.stdout.write(`${root}: kept ${kept} packages, removed ${removed}\n`);
}
