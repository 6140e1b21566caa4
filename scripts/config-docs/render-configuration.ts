/**
 * docs/operations/configuration.md, rendered from the services' zod schemas: one table per service
 * (setting, type, default, description). `pnpm docs:config` writes it; config-docs.test.ts fails
 * while the checked-in file differs from a fresh rendering.
 */
import { z } from "zod";
import { databaseSettings, natsSettings, serviceSettings } from "@chaingate/config";
import { SERVICE_CONFIGS } from "./service-configs.ts";

export const CONFIGURATION_DOC = "docs/operations/configuration.md";

/** The input side of a setting as zod's JSON Schema renders it (io: "input": what the environment holds). */
interface SettingJsonSchema {
  type?: string;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  pattern?: string;
  default?: unknown;
  description?: string;
}

const FLAG_VALUES = ["true", "false", "1", "0"];

/** The shared groups of packages/config, by the function that defines them. */
const SHARED_GROUPS = [
  { name: "serviceSettings", keys: Object.keys(serviceSettings(0)) },
  { name: "databaseSettings", keys: Object.keys(databaseSettings()) },
  { name: "natsSettings", keys: Object.keys(natsSettings()) },
];

type Properties = Record<string, SettingJsonSchema & { items?: SettingJsonSchema }>;

/** Every setting of one schema, in declaration order, as its JSON Schema; `urlList` says the setting is parsed into a list of URLs. */
function settingsOf(schema: z.ZodObject): Array<[string, SettingJsonSchema & { urlList: boolean }]> {
  const jsonOf = (io: "input" | "output") =>
    (z.toJSONSchema(schema, { io, unrepresentable: "any" }) as { properties?: Properties }).properties ?? {};
  const output = jsonOf("output");
  return Object.entries(jsonOf("input")).map(([name, input]) => [
    name,
    { ...input, urlList: output[name]?.type === "array" && output[name]?.items?.format === "uri" },
  ]);
}

/** Every setting name some service schema reads. */
export function schemaSettingNames(): Set<string> {
  return new Set(SERVICE_CONFIGS.flatMap(({ schema }) => Object.keys(schema.shape)));
}

function code(text: string): string {
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** Table cells hold no pipes or line breaks. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function renderType(setting: SettingJsonSchema & { urlList: boolean }): string {
  if (setting.urlList) return "URLs, comma-separated";
  if (setting.enum) {
    const values = setting.enum.map(String);
    if (values.length === FLAG_VALUES.length && values.every((value) => FLAG_VALUES.includes(value)))
      return "boolean (`true`, `false`, `1`, `0`)";
    return values.map(code).join(" or ");
  }
  if (setting.type === "integer" || setting.type === "number") {
    const lowest =
      setting.exclusiveMinimum !== undefined
        ? setting.type === "integer"
          ? `≥ ${setting.exclusiveMinimum + 1}`
          : `> ${setting.exclusiveMinimum}`
        : setting.minimum !== undefined
          ? `≥ ${setting.minimum}`
          : undefined;
    const highest = setting.maximum !== undefined && setting.maximum < Number.MAX_SAFE_INTEGER ? setting.maximum : undefined;
    if (setting.minimum !== undefined && highest !== undefined) return `${setting.type} ${setting.minimum}–${highest}`;
    return [setting.type, [lowest, highest === undefined ? undefined : `≤ ${highest}`].filter(Boolean).join(", ")]
      .filter(Boolean)
      .join(" ");
  }
  if (setting.format === "uri") return "URL";
  const limits = [
    setting.minLength === 1 ? "non-empty" : setting.minLength !== undefined ? `at least ${setting.minLength} characters` : undefined,
    setting.pattern ? `matching ${code(setting.pattern)}` : undefined,
  ].filter(Boolean);
  return limits.length ? `string, ${limits.join(", ")}` : "string";
}

function renderDefault(setting: SettingJsonSchema): string {
  if (setting.default === undefined) return "unset";
  if (setting.default === "") return "empty";
  return code(String(setting.default));
}

function renderService(service: string, file: string, exportName: string, schema: z.ZodObject): string {
  const rows = settingsOf(schema).map(([name, setting]) => {
    if (!setting.description) throw new Error(`${file}: ${name} has no description; add .describe("…") to it`);
    return `| ${code(name)} | ${cell(renderType(setting))} | ${cell(renderDefault(setting))} | ${cell(setting.description)} |`;
  });
  return [
    `## ${service}`,
    "",
    `${code(file)} (${code(exportName)})`,
    "",
    "| setting | type | default | description |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

function renderSharedGroups(): string {
  const lines = SHARED_GROUPS.map(({ name, keys }) => {
    const users = SERVICE_CONFIGS.filter(({ schema }) => keys.every((key) => key in schema.shape)).map(({ service }) => service);
    return `- ${code(name)} (${users.join(", ")}): ${keys.map(code).join(", ")}`;
  });
  return lines.join("\n");
}

/** The whole document. */
export function renderConfigurationDoc(): string {
  return [
    "# Configuration",
    "",
    "<!-- Generated by scripts/generate-config-docs.ts from the services' zod schemas: do not edit by hand, run `pnpm docs:config`. -->",
    "",
    "Every service reads its settings from the environment through one zod schema and refuses to start with a",
    "message naming each bad variable; it logs the effective configuration once at start, secrets masked",
    "([deployment](deployment.md#startup-log)). The tables below are generated from those schemas; a test",
    "(`scripts/config-docs.test.ts`) fails while this file differs from them.",
    "",
    "Groups every service spreads into its schema from `packages/config/src/service-settings.ts` (defaults may",
    "differ per service, as the tables show):",
    "",
    renderSharedGroups(),
    "",
    "Read outside these schemas: `OTEL_EXPORTER_OTLP_ENDPOINT` and `OTEL_SERVICE_NAME` (the telemetry preload,",
    "[metrics and traces](metrics.md#traces)), and the dev stack's own variables ([dev chains](../dev-chains.md)).",
    "",
    ...SERVICE_CONFIGS.map(({ service, file, exportName, schema }) => renderService(service, file, exportName, schema)),
  ].join("\n");
}
