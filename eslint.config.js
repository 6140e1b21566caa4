// @ts-check
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/** Zone paths below are relative to the repository root, wherever eslint is started from. */
const ROOT = dirname(fileURLToPath(import.meta.url));
const SERVICES = readdirSync(join(ROOT, "services"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The layering inside services, services apart from the gateway, and packages below services. */
const LAYER_ZONES = [
  {
    target: "services/*/src/domain/**",
    from: ["services/*/src/infra/**", "services/*/src/http/**"],
    message: "domain/ knows no adapters: declare the port in domain/ and implement it in infra/.",
  },
  {
    target: "services/*/src/infra/**",
    from: "services/*/src/http/**",
    message: "infra/ does not depend on http/: move what both use to infra/ or domain/.",
  },
  {
    // Tests included: a service is tested at its own internal edge (@chaingate/testing internalEdge).
    target: "services/!(gateway)/**",
    from: "services/gateway/**",
    message: "Tests through the gateway live in drills/src/e2e; a service's own tests call its internal edge.",
  },
  {
    target: "packages/**",
    from: "services/**",
    message: "Packages are shared by services and never depend on one.",
  },
];
/** A service's code may not import any other service. */
const serviceStaysApart = (/** @type {string} */ name) => ({
  target: `services/${name}/**`,
  from: SERVICES.filter((other) => other !== name).map((other) => `services/${other}/**`),
  message: "A service does not import another service: it calls it over HTTP or the bus.",
});
/** Tests and their helpers, which may use another service's package exports. */
const TEST_FILES = ["**/*.test.ts", "**/testing/**"];

export default tseslint.config(
  // .tmp holds scratch output (dev chain data, image build contexts with a copy of npm).
  { ignores: ["**/node_modules/**", "**/dist/**", "**/vendor/**", ".tmp/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  {
    // CLIs, scripts and benchmarks talk to a person on stdout.
    files: ["scripts/**", "bench/**", "**/admin/**", "**/bin/**"],
    rules: { "no-console": "off" },
  },
  // Boundaries (scripts/lint-boundaries.test.ts shows each one failing a wrong-way import).
  // Imports are checked by where they resolve to, through the workspace's package links.
  {
    files: ["**/*.ts", "**/*.js"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createNodeResolver()] },
    rules: {
      // Another workspace package (a service's src included) only by its name and exports:
      // bench/, drills/ and other services never reach into `../../services/x/src`.
      "import-x/no-relative-packages": "error",
      "import-x/no-restricted-paths": ["error", { basePath: ROOT, zones: LAYER_ZONES }],
    },
  },
  {
    // STYLE.md: domain/ declares the ports it needs; the adapters (database, bus, HTTP) are infra/'s and http/'s.
    files: ["services/*/src/domain/**"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["pg", "kysely", "nats", "express", "undici", "@chaingate/db", "@chaingate/bus", "@chaingate/http"].map((name) => ({
            name,
            message: "domain/ knows no framework: declare a port in domain/ and implement it in infra/ or http/.",
          })),
        },
      ],
    },
  },
  {
    // A service's running code talks to another service over HTTP or the bus, never by import;
    // its tests may use another service's package exports (e.g. to seed its data).
    files: SERVICES.map((name) => `services/${name}/**`),
    ignores: TEST_FILES,
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: ROOT,
          zones: [...LAYER_ZONES, ...SERVICES.map(serviceStaysApart)],
        },
      ],
    },
  },
);
