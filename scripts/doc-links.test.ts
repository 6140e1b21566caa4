/** Every relative link in the README and docs/ reaches a file of the repository, and its #anchor a heading there. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { documentationFiles, proseLines } from "./config-docs/documentation-files.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(markdown)) {
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replaceAll(" ", "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** Inline links `[text](target)` outside fenced blocks, external ones left out. */
function linksOf(file: string): Array<{ target: string; where: string }> {
  return proseLines(readFileSync(join(ROOT, file), "utf8")).flatMap(({ line, number }) =>
    [...line.replaceAll(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target!)
      .filter((target) => !/^[a-z]+:/i.test(target))
      .map((target) => ({ target, where: `${file}:${number}` })),
  );
}

it("every relative link in the README and docs/ resolves, anchors included", () => {
  const broken = documentationFiles(ROOT, { withSpec: true }).flatMap((file) =>
    linksOf(file).flatMap(({ target, where }) => {
      const [path = "", anchor] = target.split("#");
      const resolved = path ? join(dirname(join(ROOT, file)), path) : join(ROOT, file);
      if (!existsSync(resolved)) return [`${where}: ${target} (no ${relative(ROOT, resolved)})`];
      if (anchor && statSync(resolved).isFile() && !anchorsOf(readFileSync(resolved, "utf8")).has(anchor))
        return [`${where}: ${target} (no heading #${anchor})`];
      return [];
    }),
  );
  expect(broken).toEqual([]);
});
