/**
 * What the Helm chart tests share: the chart's paths, the services and what they call, `helm template`
 * renders (without and with cluster access) and readers of the rendered objects.
 */
import path from "node:path";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { Job } from "kubernetes-models/batch/v1/Job";
import { PodMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor";
import { PrometheusRule } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule";
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";
import { parseAllDocuments } from "yaml";
import { expect } from "vitest";
import type { FakeKubeApi } from "./fake-kube-api.ts";
import { deployDir, run, runAsync, unpackKubernetesTools, type KubernetesTools, type RunResult } from "./kubernetes-tools.ts";
import type { Endpoint, NetworkPolicySpec } from "./network-policy.ts";

let tools: KubernetesTools | undefined;

/** helm and kubectl, unpacked once per test file (call it from a `beforeAll` so unpacking is not timed as a test). */
export function kubernetesTools(): KubernetesTools {
  tools ??= unpackKubernetesTools();
  return tools;
}

export const chartDir = path.join(deployDir, "helm", "chaingate");
export const productionValues = path.join(deployDir, "helm", "production-values.yaml");
export const NAMESPACE = "chaingate";
/** The token given to renders without cluster access (the chart refuses to generate one there). */
export const TOKEN = "test-internal-token-0123456789abcdefghijklmnopq";

export const SERVICES = ["gateway", "btc-proxy", "eth-proxy", "trx-proxy", "xpub", "delivery", "scanner"];
export const STATELESS = ["gateway", "btc-proxy", "eth-proxy", "trx-proxy", "xpub", "delivery"];
export const INTERNAL = ["btc-proxy", "eth-proxy", "trx-proxy", "xpub", "delivery"];
export const UPSTREAM_ENV: Record<string, string> = {
  "btc-proxy": "BTC_PROXY_URL",
  "eth-proxy": "ETH_PROXY_URL",
  "trx-proxy": "TRX_PROXY_URL",
  xpub: "XPUB_URL",
  delivery: "DELIVERY_URL",
};
/** The internal services each service calls, by the URL in UPSTREAM_ENV; no other pod may reach them. */
export const CALLS: Record<string, string[]> = {
  gateway: INTERNAL,
  // The registry reads the addresses a key issued before a webhook named it.
  delivery: ["xpub"],
};
export const calls = (caller: string, callee: string) => (CALLS[caller] ?? []).includes(callee);

/**
 * What each service's shutdown waits for after SIGTERM (services/*\/src/config.ts and their
 * close()): DRAIN_TIMEOUT_MS (10 s) for in-flight requests, then delivery's attempts in flight
 * (DELIVERY_TIMEOUT_MS, 15 s) and the scanner's block fetch (NODE_TIMEOUT_MS, 30 s), then the span
 * flush (up to 5 s, @chaingate/service-kit's on-shutdown-signal.ts).
 */
export const DRAIN_TIMEOUT_MS = 10_000;
export const SHUTDOWN_WAITS: Record<string, Record<string, number>> = {
  delivery: { DELIVERY_TIMEOUT_MS: 15_000 },
  scanner: { NODE_TIMEOUT_MS: 30_000 },
};
export const FLUSH_SECONDS = 5;
/** The gateway's default request-body budget (services/gateway/src/config.ts). */
export const MAX_BUFFERED_BODY_BYTES = 256 * 1024 * 1024;

/** The API versions and kinds the chart may emit: GA APIs (and the Prometheus Operator's v1), each validated by its model. */
export const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/ServiceAccount": ServiceAccount,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "networking.k8s.io/v1/Ingress": Ingress,
  "batch/v1/Job": Job,
  "monitoring.coreos.com/v1/ServiceMonitor": ServiceMonitor,
  "monitoring.coreos.com/v1/PodMonitor": PodMonitor,
  "monitoring.coreos.com/v1/PrometheusRule": PrometheusRule,
};

/** A rendered object: the tests check it field by field, and a loose shape keeps that readable. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [key: string]: any;
};
export interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

export function helm(args: string[]): string {
  const result = run(kubernetesTools().helm, args);
  if (result.status !== 0) throw new Error(`helm ${args.join(" ")} exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

export function parseObjects(out: string): K8sObject[] {
  return parseAllDocuments(out)
    .map((doc) => {
      if (doc.errors.length) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export const templateArgs = (extraArgs: string[], { token = true } = {}) => [
  "template",
  "chaingate",
  chartDir,
  "--namespace",
  NAMESPACE,
  ...(token ? ["--set", `secret.internalAuthToken=${TOKEN}`] : []),
  ...extraArgs,
];

/** `helm template` without cluster access (as GitOps tools render), with the internal token given unless `token: false`. */
export function render(extraArgs: string[], options: { token?: boolean } = {}): K8sObject[] {
  return parseObjects(helm(templateArgs(extraArgs, options)));
}

/** A render that must fail: its stderr. */
export function renderFailure(extraArgs: string[], options: { token?: boolean } = {}): string {
  const result = run(kubernetesTools().helm, templateArgs(extraArgs, options));
  expect(result.status, `helm template ${extraArgs.join(" ")} should fail`).not.toBe(0);
  return result.stderr;
}

/** `helm template --dry-run=server` against the fake API server: lookups answer as in `helm install`/`upgrade`. */
export async function renderWithCluster(api: FakeKubeApi, extraArgs: string[]): Promise<K8sObject[]> {
  const args = templateArgs(["--dry-run=server", "--kubeconfig", api.kubeconfig, ...extraArgs], { token: false });
  const result: RunResult = await runAsync(kubernetesTools().helm, args);
  if (result.status !== 0) throw new Error(`helm ${args.join(" ")} exited ${result.status}:\n${result.stderr}`);
  return parseObjects(result.stdout);
}

export const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
export const component = (o: K8sObject) => o.metadata.labels?.["app.kubernetes.io/component"];
export const find = (objects: K8sObject[], kind: string, service: string) => {
  const found = objects.find((o) => o.kind === kind && component(o) === service);
  if (!found) throw new Error(`no ${kind} for ${service}`);
  return found;
};
export const containerOf = (objects: K8sObject[], service: string) => find(objects, "Deployment", service).spec.template.spec.containers[0];
export const envOf = (objects: K8sObject[], service: string): EnvEntry[] => containerOf(objects, service).env ?? [];
export const secretChecksums = (objects: K8sObject[]) =>
  Object.fromEntries(byKind(objects, "Deployment").map((d) => [component(d)!, d.spec.template.metadata.annotations["checksum/secret"]]));

/** A Kubernetes memory quantity in bytes (the forms the chart's values use). */
export function bytes(quantity: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity));
  if (!match) throw new Error(`cannot read ${quantity}`);
  const scale = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 }[match[2] ?? ""]!;
  return Number(match[1]) * scale;
}

/** The seconds the preStop hook waits (exec `sleep N` or the sleep action), 0 without one. */
export function preStopSeconds(container: K8sObject): number {
  const preStop = container.lifecycle?.preStop;
  if (!preStop) return 0;
  if (preStop.sleep) return preStop.sleep.seconds;
  expect(preStop.exec.command[0]).toBe("sleep");
  return Number(preStop.exec.command[1]);
}

/** The seconds a service's shutdown may take after SIGTERM, from its rendered pod and ConfigMap. */
export function shutdownSeconds(objects: K8sObject[], service: string): number {
  const config = find(objects, "ConfigMap", service).data;
  const drainMs = Number(config.DRAIN_TIMEOUT_MS ?? DRAIN_TIMEOUT_MS);
  const waitsMs = Object.entries(SHUTDOWN_WAITS[service] ?? {}).reduce(
    (sum, [setting, fallback]) => sum + Number(config[setting] ?? fallback),
    0,
  );
  return preStopSeconds(containerOf(objects, service)) + Math.ceil((drainMs + waitsMs) / 1000) + FLUSH_SECONDS;
}

export function podOf(deployment: K8sObject): Endpoint {
  const container = (deployment as IDeployment).spec!.template.spec!.containers[0]!;
  const namedPorts = Object.fromEntries((container.ports ?? []).map((p) => [p.name!, p.containerPort]));
  return {
    podLabels: deployment.spec.template.metadata.labels,
    namespace: NAMESPACE,
    namespaceLabels: { "kubernetes.io/metadata.name": NAMESPACE },
    namedPorts,
  };
}

export function policiesOf(objects: K8sObject[]): Array<{ namespace: string; spec: NetworkPolicySpec }> {
  return byKind(objects, "NetworkPolicy").map((p) => ({ namespace: NAMESPACE, spec: p.spec }));
}

export const inNamespace = (namespace: string, podLabels: Record<string, string> = { app: "x" }): Endpoint => ({
  podLabels,
  namespace,
  namespaceLabels: { "kubernetes.io/metadata.name": namespace },
});

/**
 * One address in each IPv4 range the delivery refuses itself (services/delivery/src/domain/
 * forbidden-address.ts: ipaddr.js's non-unicast ranges and the platform addresses): its
 * NetworkPolicy must refuse them too.
 */
export const FORBIDDEN_WEBHOOK_ADDRESSES = [
  "0.1.2.3", // "this network" 0.0.0.0/8
  "10.1.2.3",
  "100.64.1.2", // CGNAT
  "100.100.100.200", // Alibaba Cloud metadata
  "127.0.0.1",
  "168.63.129.16", // Azure WireServer (public range)
  "169.254.169.254", // instance metadata
  "172.16.5.4",
  "192.0.0.192", // IETF protocol assignments; Oracle Cloud metadata
  "192.0.2.10", // TEST-NET-1
  "192.31.196.1", // AS112
  "192.52.193.1", // AMT
  "192.88.99.1", // 6to4 relay anycast
  "192.168.1.1",
  "192.175.48.1", // AS112
  "198.18.0.1", // benchmarking 198.18.0.0/15
  "198.19.255.254",
  "198.51.100.7", // TEST-NET-2
  "203.0.113.7", // TEST-NET-3
  "224.0.0.251", // multicast 224.0.0.0/4
  "239.255.255.250",
  "240.0.0.1", // reserved 240.0.0.0/4
  "255.255.255.255",
];
/** Addresses a subscriber may really have. */
export const PUBLIC_WEBHOOK_ADDRESSES = ["93.184.216.34", "1.1.1.1", "8.8.8.8", "185.199.108.153"];
