/**
 * Checks for the Prometheus Operator objects the chart renders, beyond their models' own
 * validation (`@kubernetes-models/prometheus-operator` checks types, required fields and patterns
 * but lets unknown fields through): every field the chart emits is one monitoring.coreos.com/v1
 * defines, every alert expression parses as PromQL (Prometheus' own lezer grammar), and every metric
 * it names is defined in the services' code.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parser } from "@prometheus-io/lezer-promql";

/** The fields of monitoring.coreos.com/v1 the chart may emit, by object path ("*" for list items). */
const KNOWN_FIELDS: Record<string, string[]> = {
  "": ["apiVersion", "kind", "metadata", "spec"],
  metadata: ["name", "namespace", "labels", "annotations"],
  // ServiceMonitorSpec / PodMonitorSpec
  "ServiceMonitor.spec": ["selector", "namespaceSelector", "endpoints", "jobLabel", "targetLabels", "podTargetLabels"],
  "PodMonitor.spec": ["selector", "namespaceSelector", "podMetricsEndpoints", "jobLabel", "podTargetLabels"],
  "spec.selector": ["matchLabels", "matchExpressions"],
  "spec.namespaceSelector": ["any", "matchNames"],
  // Endpoint / PodMetricsEndpoint
  "spec.endpoints.*": [
    "port",
    "targetPort",
    "path",
    "scheme",
    "interval",
    "scrapeTimeout",
    "honorLabels",
    "relabelings",
    "metricRelabelings",
  ],
  "spec.podMetricsEndpoints.*": [
    "port",
    "portNumber",
    "path",
    "scheme",
    "interval",
    "scrapeTimeout",
    "honorLabels",
    "relabelings",
    "metricRelabelings",
  ],
  // PrometheusRuleSpec / RuleGroup / Rule
  "PrometheusRule.spec": ["groups"],
  "spec.groups.*": ["name", "interval", "rules"],
  "spec.groups.*.rules.*": ["alert", "record", "expr", "for", "keep_firing_for", "labels", "annotations"],
};

/** Fields of `object` (a rendered ServiceMonitor, PodMonitor or PrometheusRule) that monitoring.coreos.com/v1 does not define, as paths. */
export function unknownFields(object: { kind: string; [key: string]: unknown }): string[] {
  const unknown: string[] = [];
  const walk = (value: unknown, at: string, pattern: string) => {
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${at}[${i}]`, `${pattern}.*`));
    if (!value || typeof value !== "object") return;
    const known = KNOWN_FIELDS[pattern === "spec" ? `${object.kind}.spec` : pattern];
    if (!known) return; // label maps, selectors' contents, relabelings: free-form or checked by the model
    for (const [key, child] of Object.entries(value)) {
      const childAt = at ? `${at}.${key}` : key;
      if (!known.includes(key)) unknown.push(childAt);
      else walk(child, childAt, pattern ? `${pattern}.${key}` : key);
    }
  };
  walk(object, "", "");
  return unknown;
}

export interface ParsedExpression {
  /** Syntax errors, as offsets into the expression. */
  errors: number[];
  /** The metric names of its vector selectors. */
  metrics: string[];
  /** The text of each vector selector (name and matchers). */
  selectors: string[];
}

export function parsePromQl(expr: string): ParsedExpression {
  const parsed: ParsedExpression = { errors: [], metrics: [], selectors: [] };
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) parsed.errors.push(node.from);
      if (node.name === "VectorSelector") parsed.selectors.push(expr.slice(node.from, node.to));
      if (node.name === "Identifier" && node.node.parent?.name === "VectorSelector") parsed.metrics.push(expr.slice(node.from, node.to));
    },
  });
  return parsed;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/**
 * Every metric name the services define (prom-client `name:` options, written with the service's
 * prefix `${prefix}…`/`${p}…`, or in full), each with the file that defines it. Histograms also
 * expose `_bucket`, `_sum` and `_count`; those are accepted for a defined histogram name.
 */
export function definedMetrics(repoRoot: string): Map<string, string> {
  const defined = new Map<string, string>();
  const servicesDir = path.join(repoRoot, "services");
  const packagesDir = path.join(repoRoot, "packages");
  const services = readdirSync(servicesDir);
  for (const service of services) {
    const prefix = `${service.replace(/[^a-zA-Z0-9]/g, "_")}_`;
    // Service-specific metrics, and the ones every service gets from service-kit under its prefix.
    for (const file of [
      ...sourceFiles(path.join(servicesDir, service, "src")),
      ...sourceFiles(path.join(packagesDir, "service-kit", "src")),
    ]) {
      const text = readFileSync(file, "utf8");
      for (const [, rest] of text.matchAll(/name:\s*`\$\{[^}]+\}([a-z0-9_]+)`/g))
        defined.set(`${prefix}${rest}`, path.relative(repoRoot, file));
      for (const [, full] of text.matchAll(/name:\s*"([a-z][a-z0-9_]+)"/g))
        if (full!.startsWith(prefix)) defined.set(full!, path.relative(repoRoot, file));
    }
  }
  return defined;
}

/** Whether `metric` is defined (or is a histogram's series of a defined name). */
export function isDefined(metric: string, defined: Map<string, string>): boolean {
  return defined.has(metric) || defined.has(metric.replace(/_(bucket|sum|count)$/, ""));
}
