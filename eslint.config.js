// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
);
