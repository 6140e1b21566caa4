/**
 * The console's production build: a static page and content-hashed assets in dist/, served by the
 * gateway at /console. No CDN, no inline script (the gateway's Content-Security-Policy forbids it).
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL("./web", import.meta.url)),
  base: "/console/",
  // JSX through Vite's own transform (tsconfig: jsxImportSource preact), no Babel plugin.
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    // An inlined asset would be a data: URL script or style; keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: "es2022",
  },
  // The verification snippets are read from the delivery service's examples (one source of truth).
  server: { fs: { allow: [fileURLToPath(new URL("../..", import.meta.url))] } },
});
