/** The Markdown files that document chaingate: the README and docs/, paths from the repository root. */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The spec (docs/spec/) is the contract chaingate implements, not a description of the code: left out unless asked for. */
export function documentationFiles(root: string, options: { withSpec?: boolean } = {}): string[] {
  const files = ["README.md"];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(join(root, directory), { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory() && (options.withSpec || path !== join("docs", "spec"))) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk("docs");
  return files.sort();
}

/** The lines of a Markdown file outside fenced code blocks, with their 1-based numbers. */
export function proseLines(markdown: string): Array<{ line: string; number: number }> {
  const lines: Array<{ line: string; number: number }> = [];
  let fenced = false;
  markdown.split("\n").forEach((line, index) => {
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    else if (!fenced) lines.push({ line, number: index + 1 });
  });
  return lines;
}
