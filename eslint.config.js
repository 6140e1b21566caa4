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
    target: ["packages/**", "apps/**", "peers/**", "testkit/**", "generated/**"],
    from: "services/**",
    message: "Packages, apps, dev peers, the test kit and generated code never depend on a service: services depend on them.",
  },
];
/**
 * The kinds of workspace packages (pnpm-workspace.yaml): what running code (a service's, a runtime
 * package's; not their tests) may never load. The test kit and the dev peers are for tests and the
 * dev stack; the generated API client is for the API's users (the console, drills).
 */
const RUNTIME_KIND_ZONES = [
  {
    target: ["packages/**", "services/**"],
    from: ["testkit/**", "peers/**"],
    message: "Running code never loads the test kit or a dev node peer: only tests (and testing/ helpers) do.",
  },
  {
    target: ["packages/**", "services/**"],
    from: ["apps/**", "generated/**"],
    message: "Runtime packages and services do not load an app or the generated API client (that is for the API's users).",
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
    // Small units: one operation or one rule per function, one subject per file. Generated code is
    // exempt (it is regenerated, not read).
    files: ["**/*.ts", "**/*.tsx", "**/*.js"],
    ignores: ["generated/api-client/src/schema.ts"],
    rules: {
      "max-lines-per-function": ["error", { max: 120 }],
      "max-lines": ["error", { max: 400 }],
    },
  },
  {
    // STYLE.md: one base error (a stable code, a retryable flag, a cause). The dev peers mimic other
    // software's errors; a CLI's usage errors only pick its exit code.
    files: ["services/**/*.ts", "packages/**/*.ts"],
    ignores: [...TEST_FILES, "**/admin/**", "packages/errors/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ClassDeclaration[superClass.name='Error']",
          message: "Extend ChaingateError (@chaingate/errors): a stable code and a retryable flag for every error raised on purpose.",
        },
      ],
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
    settings: {
      "import-x/resolver-next": [createNodeResolver()],
      // Which files import-x parses to follow imports (no-cycle reads every module it reaches).
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      // Another workspace package (a service's src included) only by its name and exports:
      // bench/, drills/ and other services never reach into `../../services/x/src`.
      "import-x/no-relative-packages": "error",
      "import-x/no-restricted-paths": ["error", { basePath: ROOT, zones: LAYER_ZONES }],
      // Modules that import each other load half-initialised, in an order that depends on who came first.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["packages/**"],
    ignores: TEST_FILES,
    rules: { "import-x/no-restricted-paths": ["error", { basePath: ROOT, zones: [...LAYER_ZONES, ...RUNTIME_KIND_ZONES] }] },
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
          zones: [...LAYER_ZONES, ...RUNTIME_KIND_ZONES, ...SERVICES.map(serviceStaysApart)],
        },
      ],
    },
  },
);
