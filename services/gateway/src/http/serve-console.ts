/**
 * Serves the web console (apps/console, built by Vite) at `/console`: one HTML page and its
 * content-hashed assets, under a strict Content-Security-Policy (the page's own scripts, styles
 * and API calls only). The console signs in with an API key kept in the browser's session storage;
 * nothing here ever sees a key in a URL.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import express, { type Express, type Response } from "express";

export const CONSOLE_PATH = "/console";

/** Nothing but the console's own files and same-origin API calls; no framing, no inline code. */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Vite names every asset after its content hash: a changed file is a new URL, so caching forever is safe. */
const HASHED_ASSET_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

function setSecurityHeaders(res: Response): void {
  res.setHeader("content-security-policy", CONSOLE_CONTENT_SECURITY_POLICY);
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("referrer-policy", "no-referrer");
  res.setHeader("x-frame-options", "DENY");
}

const NOT_BUILT_PAGE = (dir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>chaingate console not built</title></head>
<body><h1>The console is not built</h1>
<p>This gateway found no console build in <code>${dir.replace(/[<>&]/g, "")}</code>. Build it with <code>pnpm --filter @chaingate/console build</code> (the test command, the dev start and the images do), or set CONSOLE_DIR to a built console.</p>
<p>The API itself works without it.</p></body></html>`;

/** Registers `/console` (the page) and `/console/assets/*` (hashed assets) on `app`. */
export function serveConsole(app: Express, consoleDir: string): void {
  const indexFile = path.join(consoleDir, "index.html");
  // Read once it exists: a console built after the gateway started is served without a restart.
  let indexHtml: string | undefined;
  const sendIndex = (_req: express.Request, res: Response) => {
    setSecurityHeaders(res);
    indexHtml ??= existsSync(indexFile) ? readFileSync(indexFile, "utf8") : undefined;
    if (!indexHtml) return void res.status(503).type("html").setHeader("cache-control", "no-store").send(NOT_BUILT_PAGE(consoleDir));
    // The page names the current assets: always revalidated.
    res.setHeader("cache-control", "no-cache");
    res.type("html").send(indexHtml);
  };
  app.get([CONSOLE_PATH, `${CONSOLE_PATH}/`], sendIndex);
  app.use(
    `${CONSOLE_PATH}/assets`,
    express.static(path.join(consoleDir, "assets"), {
      index: false,
      fallthrough: true,
      immutable: true,
      maxAge: HASHED_ASSET_MAX_AGE_SECONDS * 1000,
      setHeaders: (res) => setSecurityHeaders(res),
    }),
  );
}

/**
 * Where the built console is: CONSOLE_DIR when set, else beside the compiled gateway
 * (`dist/console`, the image) or the workspace's `apps/console/dist` (running from source).
 */
export function defaultConsoleDir(moduleUrl: string): string {
  const here = path.dirname(new URL(moduleUrl).pathname);
  // dist/main.js or a chunk in dist/chunks/; the source tree's services/gateway/src.
  const candidates = [path.join(here, "console"), path.join(here, "..", "console"), path.resolve(here, "../../../apps/console/dist")];
  return candidates.find((dir) => existsSync(path.join(dir, "index.html"))) ?? candidates[2]!;
}
