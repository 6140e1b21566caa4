/**
 * The Helm chart deploy/helm/chaingate: `helm lint` and `helm template` with the default values, the
 * production-like values (deploy/helm/production-values.yaml) and a service switched off; every
 * rendered object validated against the Kubernetes schemas (kubernetes-models; the Prometheus
 * Operator's objects with @kubernetes-models/prometheus-operator and a check of their fields), then
 * what an operator relies on: probes, selectors that match their pods, one HPA per stateless
 * service, PDBs, spreading over nodes and zones, drains that fit their grace period, the gateway as
 * the only reachable service, each internal service reachable only by the services that call it
 * (the gateway; delivery → xpub), secrets from an existing Secret, a values schema that refuses what
 * it does not know, an INTERNAL_TOKEN that stays the same from render to render, and alert rules
 * that parse and name metrics the services define. `lookup` is exercised against a fake API server
 * (fake-kube-api.ts) through `helm template --dry-run=server`.
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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeKubeApi, type FakeKubeApi } from "./fake-kube-api.ts";
import { deployDir, repoRoot, run, runAsync, unpackKubernetesTools, type KubernetesTools, type RunResult } from "./kubernetes-tools.ts";
import { allowed, selects, type Endpoint, type NetworkPolicySpec } from "./network-policy.ts";
import { definedMetrics, isDefined, parsePromQl, unknownFields } from "./prometheus-objects.ts";

const chartDir = path.join(deployDir, "helm", "chaingate");
const productionValues = path.join(deployDir, "helm", "production-values.yaml");
const NAMESPACE = "chaingate";
/** The token given to renders without cluster access (the chart refuses to generate one there). */
const TOKEN = "test-internal-token-0123456789abcdefghijklmnopq";

const SERVICES = ["gateway", "btc-proxy", "eth-proxy", "trx-proxy", "xpub", "delivery", "scanner"];
const STATELESS = ["gateway", "btc-proxy", "eth-proxy", "trx-proxy", "xpub", "delivery"];
const INTERNAL = ["btc-proxy", "eth-proxy", "trx-proxy", "xpub", "delivery"];
const UPSTREAM_ENV: Record<string, string> = {
  "btc-proxy": "BTC_PROXY_URL",
  "eth-proxy": "ETH_PROXY_URL",
  "trx-proxy": "TRX_PROXY_URL",
  xpub: "XPUB_URL",
  delivery: "DELIVERY_URL",
};
/** The internal services each service calls, by the URL in UPSTREAM_ENV; no other pod may reach them. */
const CALLS: Record<string, string[]> = {
  gateway: INTERNAL,
  // The registry reads the addresses a key issued before a webhook named it.
  delivery: ["xpub"],
};
const calls = (caller: string, callee: string) => (CALLS[caller] ?? []).includes(callee);

/**
 * What each service's shutdown waits for after SIGTERM (services/*\/src/config.ts and their
 * close()): DRAIN_TIMEOUT_MS (10 s) for in-flight requests, then delivery's attempts in flight
 * (DELIVERY_TIMEOUT_MS, 15 s) and the scanner's block fetch (NODE_TIMEOUT_MS, 30 s), then the span
 * flush (up to 5 s, @chaingate/service-kit's on-shutdown-signal.ts).
 */
const DRAIN_TIMEOUT_MS = 10_000;
const SHUTDOWN_WAITS: Record<string, Record<string, number>> = {
  delivery: { DELIVERY_TIMEOUT_MS: 15_000 },
  scanner: { NODE_TIMEOUT_MS: 30_000 },
};
const FLUSH_SECONDS = 5;
/** The gateway's default request-body budget (services/gateway/src/config.ts). */
const MAX_BUFFERED_BODY_BYTES = 256 * 1024 * 1024;

/** The API versions and kinds the chart may emit: GA APIs (and the Prometheus Operator's v1), each validated by its model. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
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

// The rendered objects are checked field by field below; a loose shape keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; [key: string]: any };
interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

let tools: KubernetesTools;

function helm(args: string[]): string {
  const result = run(tools.helm, args);
  if (result.status !== 0) throw new Error(`helm ${args.join(" ")} exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

function parseObjects(out: string): K8sObject[] {
  return parseAllDocuments(out)
    .map((doc) => {
      if (doc.errors.length) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

const templateArgs = (extraArgs: string[], { token = true } = {}) => [
  "template",
  "chaingate",
  chartDir,
  "--namespace",
  NAMESPACE,
  ...(token ? ["--set", `secret.internalAuthToken=${TOKEN}`] : []),
  ...extraArgs,
];

/** `helm template` without cluster access (as GitOps tools render), with the internal token given unless `token: false`. */
function render(extraArgs: string[], options: { token?: boolean } = {}): K8sObject[] {
  return parseObjects(helm(templateArgs(extraArgs, options)));
}

/** A render that must fail: its stderr. */
function renderFailure(extraArgs: string[], options: { token?: boolean } = {}): string {
  const result = run(tools.helm, templateArgs(extraArgs, options));
  expect(result.status, `helm template ${extraArgs.join(" ")} should fail`).not.toBe(0);
  return result.stderr;
}

/** `helm template --dry-run=server` against the fake API server: lookups answer as in `helm install`/`upgrade`. */
async function renderWithCluster(api: FakeKubeApi, extraArgs: string[]): Promise<K8sObject[]> {
  const args = templateArgs(["--dry-run=server", "--kubeconfig", api.kubeconfig, ...extraArgs], { token: false });
  const result: RunResult = await runAsync(tools.helm, args);
  if (result.status !== 0) throw new Error(`helm ${args.join(" ")} exited ${result.status}:\n${result.stderr}`);
  return parseObjects(result.stdout);
}

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const component = (o: K8sObject) => o.metadata.labels?.["app.kubernetes.io/component"];
const find = (objects: K8sObject[], kind: string, service: string) => {
  const found = objects.find((o) => o.kind === kind && component(o) === service);
  if (!found) throw new Error(`no ${kind} for ${service}`);
  return found;
};
const containerOf = (objects: K8sObject[], service: string) => find(objects, "Deployment", service).spec.template.spec.containers[0];
const envOf = (objects: K8sObject[], service: string): EnvEntry[] => containerOf(objects, service).env ?? [];
const secretChecksums = (objects: K8sObject[]) =>
  Object.fromEntries(byKind(objects, "Deployment").map((d) => [component(d)!, d.spec.template.metadata.annotations["checksum/secret"]]));

/** A Kubernetes memory quantity in bytes (the forms the chart's values use). */
function bytes(quantity: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity));
  if (!match) throw new Error(`cannot read ${quantity}`);
  const scale = { "": 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 }[match[2] ?? ""]!;
  return Number(match[1]) * scale;
}

/** The seconds the preStop hook waits (exec `sleep N` or the sleep action), 0 without one. */
function preStopSeconds(container: K8sObject): number {
  const preStop = container.lifecycle?.preStop;
  if (!preStop) return 0;
  if (preStop.sleep) return preStop.sleep.seconds;
  expect(preStop.exec.command[0]).toBe("sleep");
  return Number(preStop.exec.command[1]);
}

/** The seconds a service's shutdown may take after SIGTERM, from its rendered pod and ConfigMap. */
function shutdownSeconds(objects: K8sObject[], service: string): number {
  const config = find(objects, "ConfigMap", service).data;
  const drainMs = Number(config.DRAIN_TIMEOUT_MS ?? DRAIN_TIMEOUT_MS);
  const waitsMs = Object.entries(SHUTDOWN_WAITS[service] ?? {}).reduce(
    (sum, [setting, fallback]) => sum + Number(config[setting] ?? fallback),
    0,
  );
  return preStopSeconds(containerOf(objects, service)) + Math.ceil((drainMs + waitsMs) / 1000) + FLUSH_SECONDS;
}

function podOf(deployment: K8sObject): Endpoint {
  const container = (deployment as IDeployment).spec!.template.spec!.containers[0]!;
  const namedPorts = Object.fromEntries((container.ports ?? []).map((p) => [p.name!, p.containerPort]));
  return {
    podLabels: deployment.spec.template.metadata.labels,
    namespace: NAMESPACE,
    namespaceLabels: { "kubernetes.io/metadata.name": NAMESPACE },
    namedPorts,
  };
}

function policiesOf(objects: K8sObject[]): Array<{ namespace: string; spec: NetworkPolicySpec }> {
  return byKind(objects, "NetworkPolicy").map((p) => ({ namespace: NAMESPACE, spec: p.spec }));
}

const inNamespace = (namespace: string, podLabels: Record<string, string> = { app: "x" }): Endpoint => ({
  podLabels,
  namespace,
  namespaceLabels: { "kubernetes.io/metadata.name": namespace },
});

/**
 * One address in each IPv4 range the delivery refuses itself (services/delivery/src/domain/
 * forbidden-address.ts: ipaddr.js's non-unicast ranges and the platform addresses): its
 * NetworkPolicy must refuse them too.
 */
const FORBIDDEN_WEBHOOK_ADDRESSES = [
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
const PUBLIC_WEBHOOK_ADDRESSES = ["93.184.216.34", "1.1.1.1", "8.8.8.8", "185.199.108.153"];

/** The checks every rendering must pass, whatever the values. */
function checkRendering(objects: K8sObject[], expectedServices: string[], { withoutPdb = [] as string[], spread = true } = {}): void {
  for (const object of objects) {
    const Model = MODELS[`${object.apiVersion}/${object.kind}`];
    expect(Model, `${object.apiVersion} ${object.kind} ${object.metadata.name} is not an expected kind`).toBeDefined();
    expect(() => new Model!(object as never).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
    if (object.apiVersion.startsWith("monitoring.coreos.com/")) expect(unknownFields(object), `${object.kind} fields`).toEqual([]);
  }
  const deployments = byKind(objects, "Deployment");
  expect(deployments.map(component).sort()).toEqual([...expectedServices].sort());

  for (const deployment of deployments) {
    const name = component(deployment)!;
    const podLabels = deployment.spec.template.metadata.labels;
    expect(selects(deployment.spec.selector, podLabels), `${name}: selector matches its pod template`).toBe(true);
    // No other Deployment's pods match this selector (they would be adopted or fought over).
    for (const other of deployments.filter((d) => d !== deployment)) {
      expect(selects(deployment.spec.selector, other.spec.template.metadata.labels), `${name} selects ${component(other)}'s pods`).toBe(
        false,
      );
    }
    const pod = deployment.spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.containers).toHaveLength(1);
    const container = pod.containers[0];
    const portNames = container.ports.map((p: { name: string }) => p.name);
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(container.startupProbe.httpGet.path).toBe("/healthz");
    expect(portNames).toContain("http");
    expect(container.resources.requests.cpu).toBeTruthy();
    expect(container.resources.requests.memory).toBeTruthy();
    expect(container.resources.limits.memory).toBeTruthy();
    expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
    // The grace period covers the whole shutdown: preStop, the drain, the service's own work, the flush.
    expect(pod.terminationGracePeriodSeconds, `${name}: grace period ≥ its shutdown`).toBeGreaterThanOrEqual(
      shutdownSeconds(objects, name),
    );

    // Spreading counts this service's pods, and only them.
    const constraints: Array<{ topologyKey: string; labelSelector?: { matchLabels?: Record<string, string> } }> =
      pod.topologySpreadConstraints ?? [];
    if (spread)
      expect(constraints.map((c) => c.topologyKey).sort(), name).toEqual(["kubernetes.io/hostname", "topology.kubernetes.io/zone"]);
    for (const constraint of constraints) {
      expect(constraint.labelSelector, `${name}: ${constraint.topologyKey} spread has a labelSelector`).toBeDefined();
      expect(selects(constraint.labelSelector, podLabels), `${name}: ${constraint.topologyKey} spread selects its pods`).toBe(true);
      for (const other of deployments.filter((d) => d !== deployment))
        expect(selects(constraint.labelSelector, other.spec.template.metadata.labels), `${name} spread counts ${component(other)}`).toBe(
          false,
        );
    }

    // Its Service selects exactly its pods, targets ports the container has, and names the metrics port.
    const service = find(objects, "Service", name);
    expect(selects({ matchLabels: service.spec.selector }, podLabels)).toBe(true);
    for (const other of deployments.filter((d) => d !== deployment)) {
      expect(selects({ matchLabels: service.spec.selector }, other.spec.template.metadata.labels)).toBe(false);
    }
    for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
    if (portNames.includes("metrics"))
      expect(service.spec.ports, `${name}: a metrics port on the Service`).toContainEqual(
        expect.objectContaining({ name: "metrics", targetPort: "metrics" }),
      );

    // Its ConfigMap is the one the pod reads, and listens where the probes look.
    const configMap = find(objects, "ConfigMap", name);
    expect(container.envFrom[0]).toEqual({ configMapRef: { name: configMap.metadata.name } });
    expect(configMap.data.HOST).toBe("0.0.0.0");
    expect(Number(configMap.data.PORT)).toBe(container.ports.find((p: { name: string }) => p.name === "http").containerPort);
    // No variable is set twice (an env entry would silently shadow another source).
    const envNames = (container.env ?? []).map((e: EnvEntry) => e.name);
    expect(new Set(envNames).size, `${name}: env names unique`).toBe(envNames.length);

    // Its PodDisruptionBudget covers its pods.
    if (!withoutPdb.includes(name)) {
      const pdb = find(objects, "PodDisruptionBudget", name);
      expect(selects(pdb.spec.selector, podLabels)).toBe(true);
    }

    // An HPA exactly for the stateless services; the scanner keeps a fixed replica count.
    const hpa = byKind(objects, "HorizontalPodAutoscaler").find((h) => h.spec.scaleTargetRef.name === deployment.metadata.name);
    if (STATELESS.includes(name)) {
      expect(hpa, `${name} has an HPA`).toBeDefined();
      expect(hpa!.spec.scaleTargetRef).toMatchObject({ apiVersion: "apps/v1", kind: "Deployment" });
      expect(deployment.spec.replicas, `${name}: the HPA owns replicas`).toBeUndefined();
    } else {
      expect(hpa, `${name} has no HPA`).toBeUndefined();
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(1);
    }
  }
  for (const hpa of byKind(objects, "HorizontalPodAutoscaler")) {
    expect(deployments.map((d) => d.metadata.name)).toContain(hpa.spec.scaleTargetRef.name);
  }

  // The gateway's memory limit holds its body budget twice (bodies are concatenated once while forwarded) plus the process.
  if (expectedServices.includes("gateway")) {
    const budget = Number(find(objects, "ConfigMap", "gateway").data.MAX_BUFFERED_BODY_BYTES ?? MAX_BUFFERED_BODY_BYTES);
    expect(bytes(containerOf(objects, "gateway").resources.limits.memory)).toBeGreaterThanOrEqual(2 * budget + 256 * 2 ** 20);
  }

  // Every Secret key a pod requires exists in the Secret it names (optional keys may be absent).
  const secrets = byKind(objects, "Secret");
  for (const deployment of deployments) {
    for (const env of deployment.spec.template.spec.containers[0].env ?? []) {
      const ref = env.valueFrom?.secretKeyRef;
      if (!ref || ref.optional) continue;
      const secret = secrets.find((s) => s.metadata.name === ref.name);
      if (secret)
        expect(Object.keys(secret.stringData ?? secret.data ?? {}), `${component(deployment)} needs ${ref.key}`).toContain(ref.key);
    }
  }

  // Each caller (the gateway, delivery) finds every enabled internal service it calls at its
  // Service's name and port; no service is given a URL it does not call or one that is off.
  for (const caller of expectedServices) {
    const config = find(objects, "ConfigMap", caller).data;
    for (const [name, variable] of Object.entries(UPSTREAM_ENV)) {
      if (!calls(caller, name) || !expectedServices.includes(name)) {
        expect(config[variable], `${caller}: ${variable} unset`).toBeUndefined();
        continue;
      }
      const service = find(objects, "Service", name);
      expect(config[variable], `${caller}: ${variable}`).toBe(`http://${service.metadata.name}:${service.spec.ports[0].port}`);
    }
  }

  // NetworkPolicy: every pod selected for ingress and egress; only the gateway reachable from outside.
  const policies = policiesOf(objects);
  const strangerPod: Endpoint = inNamespace(NAMESPACE, { app: "something-else" });
  for (const deployment of deployments) {
    const name = component(deployment)!;
    const pod = podOf(deployment);
    const covering = policies.filter((p) => selects(p.spec.podSelector, pod.podLabels));
    expect(
      covering.some((p) => p.spec.policyTypes?.includes("Ingress")),
      `${name} has an ingress policy`,
    ).toBe(true);
    expect(
      covering.some((p) => p.spec.policyTypes?.includes("Egress")),
      `${name} has an egress policy`,
    ).toBe(true);
    const port = pod.namedPorts!.http!;
    if (name === "gateway") continue;
    expect(allowed(policies, strangerPod, pod, port), `a stranger pod reaches ${name}`).toBe(false);
    expect(allowed(policies, { ip: "203.0.113.7" }, pod, port), `the internet reaches ${name}`).toBe(false);
    for (const other of deployments.filter((d) => d !== deployment)) {
      const caller = component(other)!;
      expect(allowed(policies, podOf(other), pod, port), `${caller} → ${name}`).toBe(calls(caller, name));
      // A caller reaches the service port only, never the metrics port.
      if (pod.namedPorts!.metrics)
        expect(allowed(policies, podOf(other), pod, pod.namedPorts!.metrics), `${caller} → ${name} metrics`).toBe(false);
    }
  }
  // Egress: the proxies and the scanner reach nodes, delivery reaches public webhook URLs but not
  // the ranges it refuses itself; the gateway and xpub reach no node.
  const publicNode: Endpoint = { ip: "93.184.216.34" };
  for (const name of expectedServices) {
    const pod = podOf(find(objects, "Deployment", name));
    const callsNodes = ["btc-proxy", "eth-proxy", "trx-proxy", "scanner"].includes(name);
    expect(allowed(policies, pod, publicNode, 8332), `${name} → a node`).toBe(callsNodes || name === "delivery");
  }
  if (expectedServices.includes("delivery")) {
    const delivery = podOf(find(objects, "Deployment", "delivery"));
    for (const ip of PUBLIC_WEBHOOK_ADDRESSES) expect(allowed(policies, delivery, { ip }, 443), `delivery → ${ip}`).toBe(true);
    for (const ip of FORBIDDEN_WEBHOOK_ADDRESSES) expect(allowed(policies, delivery, { ip }, 443), `delivery → ${ip}`).toBe(false);
  }
}

beforeAll(() => {
  tools = unpackKubernetesTools();
});

describe("helm chart deploy/helm/chaingate", () => {
  it("passes helm lint with the default and the production-like values", () => {
    expect(helm(["lint", chartDir, "--strict"])).toContain("0 chart(s) failed");
    expect(helm(["lint", chartDir, "--strict", "--set", `secret.internalAuthToken=${TOKEN}`])).toContain("0 chart(s) failed");
    expect(helm(["lint", chartDir, "--strict", "-f", productionValues])).toContain("0 chart(s) failed");
  });

  it("renders valid objects with the default values: all seven services, a Secret from the values, the gateway open", () => {
    const objects = render([]);
    checkRendering(objects, SERVICES);
    const secret = byKind(objects, "Secret");
    expect(secret).toHaveLength(1);
    expect(Object.keys(secret[0]!.stringData)).toEqual(expect.arrayContaining(["DATABASE_URL", "NATS_URL", "INTERNAL_TOKEN"]));
    const policies = policiesOf(objects);
    const gateway = podOf(find(objects, "Deployment", "gateway"));
    expect(allowed(policies, { ip: "203.0.113.7" }, gateway, 8080), "the internet reaches the gateway").toBe(true);
    // Its metrics port is not public.
    expect(gateway.namedPorts!.metrics).toBe(9464);
    expect(allowed(policies, { ip: "203.0.113.7" }, gateway, 9464), "the internet reaches the gateway's metrics").toBe(false);
    expect(find(objects, "ConfigMap", "gateway").data).toMatchObject({ METRICS_HOST: "0.0.0.0", METRICS_PORT: "9464" });
    expect(find(objects, "Deployment", "scanner").spec.replicas).toBe(1);
    // Off by default: the Prometheus Operator's objects (their CRDs may not exist) and the Ingress.
    for (const kind of ["ServiceMonitor", "PodMonitor", "PrometheusRule", "Ingress"]) expect(byKind(objects, kind), kind).toEqual([]);
  });

  it("lets delivery read xpub's key histories: XPUB_URL to the xpub Service, delivery → xpub open, nothing else", () => {
    const objects = render([]);
    const xpubService = find(objects, "Service", "xpub");
    expect(find(objects, "ConfigMap", "delivery").data.XPUB_URL).toBe(`http://${xpubService.metadata.name}:8080`);
    expect(xpubService.metadata.name).toBe("chaingate-xpub");
    // Delivery sends INTERNAL_TOKEN with its reads, as the gateway does.
    expect(envOf(objects, "delivery").map((e) => e.name)).toContain("INTERNAL_TOKEN");
    const policies = policiesOf(objects);
    const pod = (name: string) => podOf(find(objects, "Deployment", name));
    expect(allowed(policies, pod("delivery"), pod("xpub"), 8080), "delivery → xpub").toBe(true);
    expect(allowed(policies, pod("delivery"), pod("xpub"), 9464), "delivery → xpub metrics").toBe(false);
    expect(allowed(policies, pod("delivery"), pod("btc-proxy"), 8080), "delivery → btc-proxy").toBe(false);
    expect(allowed(policies, pod("scanner"), pod("xpub"), 8080), "scanner → xpub").toBe(false);
    expect(allowed(policies, pod("xpub"), pod("delivery"), 8080), "xpub → delivery").toBe(false);
    expect(allowed(policies, pod("gateway"), pod("xpub"), 8080), "gateway → xpub").toBe(true);
  });

  it("gives delivery no XPUB_URL and no route to xpub's pods when xpub is off", () => {
    const objects = render(["--set", "services.xpub.enabled=false"]);
    checkRendering(
      objects,
      SERVICES.filter((s) => s !== "xpub"),
    );
    expect(find(objects, "ConfigMap", "delivery").data.XPUB_URL).toBeUndefined();
    // A pod carrying xpub's labels (say, deployed by hand) is not reachable from delivery.
    const policies = policiesOf(objects);
    const delivery = podOf(find(objects, "Deployment", "delivery"));
    const lookalike = inNamespace(NAMESPACE, {
      "app.kubernetes.io/name": "chaingate",
      "app.kubernetes.io/instance": "chaingate",
      "app.kubernetes.io/component": "xpub",
    });
    expect(allowed(policies, delivery, lookalike, 8080)).toBe(false);
  });

  it("renders valid objects with production-like values: existing Secret and CloudNativePG's, ingress only from the ingress controller, monitors, rules, traces", () => {
    const objects = render(["-f", productionValues], { token: false });
    checkRendering(objects, SERVICES);
    expect(byKind(objects, "Secret")).toHaveLength(0);
    for (const deployment of byKind(objects, "Deployment")) {
      for (const env of deployment.spec.template.spec.containers[0].env as EnvEntry[]) {
        const ref = env.valueFrom?.secretKeyRef;
        if (env.name === "DATABASE_URL") expect(ref).toEqual({ name: "chaingate-pg-app", key: "uri" });
        else if (ref) expect(ref.name).toBe("chaingate-secrets");
        else expect(["OTEL_EXPORTER_OTLP_ENDPOINT", "PGSSLMODE", "NODE_EXTRA_CA_CERTS"]).toContain(env.name);
      }
      expect(deployment.spec.template.spec.containers[0].image).toBe(`registry.example.com/chaingate/${component(deployment)}:0.1.0`);
    }
    const policies = policiesOf(objects);
    const gateway = podOf(find(objects, "Deployment", "gateway"));
    const ingressController = inNamespace("ingress-nginx", { app: "ingress-nginx" });
    const prometheus = inNamespace("monitoring", { app: "prometheus" });
    expect(allowed(policies, ingressController, gateway, 8080)).toBe(true);
    expect(allowed(policies, { ip: "203.0.113.7" }, gateway, 8080)).toBe(false);
    // Prometheus scrapes every service, the scanner included.
    for (const name of SERVICES)
      expect(allowed(policies, prometheus, podOf(find(objects, "Deployment", name)), 9464), `scrape ${name}`).toBe(true);
    expect(allowed(policies, ingressController, gateway, 9464), "the ingress controller reaches the gateway's metrics").toBe(false);
    // Postgres only in its namespace.
    const xpub = podOf(find(objects, "Deployment", "xpub"));
    const postgres = inNamespace("databases", { app: "pg" });
    expect(allowed(policies, xpub, postgres, 5432)).toBe(true);
    expect(allowed(policies, xpub, inNamespace("other", { app: "pg" }), 5432)).toBe(false);
    // Spans reach the collector from every service; nothing else does through that rule.
    const collector = inNamespace("observability", { app: "otel-collector" });
    for (const name of SERVICES)
      expect(allowed(policies, podOf(find(objects, "Deployment", name)), collector, 4318), `${name} → collector`).toBe(true);
    expect(allowed(policies, gateway, collector, 5432)).toBe(false);
    expect(find(objects, "Deployment", "scanner").spec.replicas).toBe(2);
    expect(find(objects, "HorizontalPodAutoscaler", "gateway").spec).toMatchObject({ minReplicas: 3, maxReplicas: 20 });
    expect(find(objects, "ConfigMap", "gateway").data.API_KEY_CACHE_SIZE).toBe("50000");
    // Every service on the bus creates its streams with the cluster's three copies; the others are not told.
    for (const name of ["xpub", "delivery", "scanner"]) expect(find(objects, "ConfigMap", name).data.NATS_STREAM_REPLICAS, name).toBe("3");
    expect(find(objects, "ConfigMap", "gateway").data.NATS_STREAM_REPLICAS).toBeUndefined();
    // The Postgres CA is mounted read-only next to /tmp.
    expect(containerOf(objects, "xpub").volumeMounts).toContainEqual({ name: "pg-ca", mountPath: "/etc/chaingate/pg-ca", readOnly: true });
    expect(byKind(objects, "ServiceMonitor")).toHaveLength(1);
    expect(byKind(objects, "PrometheusRule")).toHaveLength(1);
    expect(byKind(objects, "Ingress")).toHaveLength(1);
  });

  it("spreads the production example's pods over zones and nodes, each constraint counting its own service's pods", () => {
    // The example's constraints name no labelSelector (one in serviceDefaults could not name each
    // service's component); a constraint without one matches no pod, so the chart adds it.
    const objects = render(["-f", productionValues], { token: false });
    for (const deployment of byKind(objects, "Deployment")) {
      const constraints = deployment.spec.template.spec.topologySpreadConstraints;
      expect(constraints.map((c: { topologyKey: string }) => c.topologyKey)).toEqual([
        "topology.kubernetes.io/zone",
        "kubernetes.io/hostname",
      ]);
      for (const constraint of constraints) expect(selects(constraint.labelSelector, deployment.spec.template.metadata.labels)).toBe(true);
    }
    // An operator's own labelSelector is kept; [] switches spreading off.
    const own = render([
      "--set-json",
      'serviceDefaults.topologySpreadConstraints=[{"maxSkew":2,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"tier":"edge"}}}]',
    ]);
    expect(find(own, "Deployment", "gateway").spec.template.spec.topologySpreadConstraints[0].labelSelector).toEqual({
      matchLabels: { tier: "edge" },
    });
    const none = render(["--set-json", "serviceDefaults.topologySpreadConstraints=[]"]);
    checkRendering(none, SERVICES, { spread: false });
    expect(find(none, "Deployment", "gateway").spec.template.spec.topologySpreadConstraints).toBeUndefined();
  });

  it("leaves out a switched-off service and the gateway's route to it", () => {
    const objects = render(["--set", "services.eth-proxy.enabled=false", "--set", "services.scanner.podDisruptionBudget.enabled=false"]);
    checkRendering(
      objects,
      SERVICES.filter((s) => s !== "eth-proxy"),
      { withoutPdb: ["scanner"] },
    );
    expect(objects.filter((o) => component(o) === "eth-proxy")).toEqual([]);
    expect(byKind(objects, "PodDisruptionBudget").map(component)).not.toContain("scanner");
  });

  it("lets the peers of networkPolicy.blockNotifyFrom (a node's -blocknotify) reach the scanner, and no one else; the scanner gets the internal token and the push URLs", () => {
    const bitcoinNs = inNamespace("btc", { app: "bitcoind" });
    const other = inNamespace("other", { app: "bitcoind" });
    const withPeers = render([
      "--set-json",
      'networkPolicy.blockNotifyFrom=[{"namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"btc"}}}]',
      "--set",
      "nodes.btc.zmqUrl=tcp://bitcoind.btc.svc:28332",
    ]);
    const scanner = podOf(find(withPeers, "Deployment", "scanner"));
    const port = scanner.namedPorts!.http!;
    expect(allowed(policiesOf(withPeers), bitcoinNs, scanner, port)).toBe(true);
    expect(allowed(policiesOf(withPeers), other, scanner, port)).toBe(false);
    expect(allowed(policiesOf(withPeers), bitcoinNs, podOf(find(withPeers, "Deployment", "xpub")), port)).toBe(false);
    expect(envOf(withPeers, "scanner").map((entry) => entry.name)).toEqual(
      expect.arrayContaining(["INTERNAL_TOKEN", "BTC_ZMQ_URL", "ETH_WS_URL"]),
    );
    expect(byKind(withPeers, "Secret")[0]!.stringData.BTC_ZMQ_URL).toBe("tcp://bitcoind.btc.svc:28332");
    const without = render([]);
    expect(allowed(policiesOf(without), bitcoinNs, podOf(find(without, "Deployment", "scanner")), port)).toBe(false);
  });

  it("takes secrets from the Secret only: the console's operator token by secretKeyRef, the internal token never optional, a secret in plain config refused", () => {
    const operatorToken = "op-token-from-values-0123456789abcdef";
    const objects = render(["--set", `secret.consoleOperatorToken=${operatorToken}`]);
    expect(byKind(objects, "Secret")[0]!.stringData.CONSOLE_OPERATOR_TOKEN).toBe(operatorToken);
    const gatewayEnv = envOf(objects, "gateway");
    expect(gatewayEnv.find((entry) => entry.name === "CONSOLE_OPERATOR_TOKEN")?.valueFrom?.secretKeyRef?.key).toBe(
      "CONSOLE_OPERATOR_TOKEN",
    );
    expect(find(objects, "ConfigMap", "gateway").data.CONSOLE_OPERATOR_TOKEN).toBeUndefined();
    // An existing Secret without INTERNAL_TOKEN must stop the pods, not switch the internal routes' check off.
    for (const deployment of byKind(objects, "Deployment")) {
      const internal = envOf(objects, component(deployment)!).find((entry) => entry.name === "INTERNAL_TOKEN");
      expect(internal?.valueFrom?.secretKeyRef?.optional, component(deployment)).toBeUndefined();
    }
    for (const key of ["CONSOLE_OPERATOR_TOKEN", "INTERNAL_TOKEN", "DATABASE_URL", "TRON_NODE_API_KEY"]) {
      expect(renderFailure(["--set", `services.gateway.config.${key}=plain`]), key).toContain(`${key} is a secret`);
    }
    // BTC_RPC_COOKIE_FILE is a path (the cookie itself comes in through a volume): plain config.
    expect(
      find(render(["--set", "services.btc-proxy.config.BTC_RPC_COOKIE_FILE=/var/run/bitcoind/.cookie"]), "ConfigMap", "btc-proxy").data
        .BTC_RPC_COOKIE_FILE,
    ).toBe("/var/run/bitcoind/.cookie");
  });
});

describe("values the chart refuses (values.schema.json and its own checks)", () => {
  it("refuses an unknown key at the top level, under services and in a service's block, with its path", () => {
    // Before the schema, each rendered as if the key were absent: services.gatway.enabled=false left the gateway on.
    expect(renderFailure(["--set", "services.gatway.enabled=false"])).toMatch(/services: Additional property gatway is not allowed/);
    expect(renderFailure(["--set", "ingres.enabled=true"])).toMatch(/Additional property ingres is not allowed/);
    expect(renderFailure(["--set", "services.gateway.replicas=3"])).toMatch(
      /services\.gateway: Additional property replicas is not allowed/,
    );
    expect(renderFailure(["--set", "serviceDefaults.autoscaling.enable=true"])).toMatch(/Additional property enable is not allowed/);
    expect(renderFailure(["--set", "networkPolicy.gatewayIngresFrom=null"])).toMatch(
      /Additional property gatewayIngresFrom is not allowed/,
    );
    // Resources are per service now: the old shared default would silently override nothing.
    expect(renderFailure(["--set", "serviceDefaults.resources.limits.memory=1Gi"])).toMatch(
      /serviceDefaults: Additional property resources is not allowed/,
    );
    // helm lint --strict refuses them too.
    const lint = run(tools.helm, ["lint", chartDir, "--strict", "--set", "services.gatway.enabled=false"]);
    expect(lint.status).not.toBe(0);
    expect(lint.stdout + lint.stderr).toContain("gatway");
  });

  it("checks types and ranges", () => {
    expect(renderFailure(["--set", "serviceDefaults.replicaCount=two"])).toMatch(/replicaCount: Invalid type/);
    expect(renderFailure(["--set", "services.scanner.replicaCount=0"])).toMatch(/replicaCount: Must be greater than or equal to 1/);
    expect(renderFailure(["--set", "serviceDefaults.logLevel=verbose"])).toMatch(/logLevel/);
    expect(renderFailure(["--set", "services.gateway.autoscaling.targetCPUUtilizationPercentage=170"])).toMatch(
      /targetCPUUtilizationPercentage/,
    );
    expect(renderFailure(["--set", "nats.streamReplicas=7"])).toMatch(/streamReplicas/);
    expect(renderFailure(["--set", "serviceDefaults.preStop.handler=httpGet"])).toMatch(/handler/);
    // Kubernetes env values are strings: an unquoted number in extraEnv is refused here, not by the API server.
    expect(renderFailure(["--set-json", 'extraEnv=[{"name":"A","value":5}]'])).toMatch(/extraEnv\.0\.value: Invalid type/);
    // A config key that cannot be an environment variable.
    expect(renderFailure(["--set-json", 'services.gateway.config={"max-body":"1"}'], {})).toMatch(/config/);
    // Tokens the services would refuse at start-up (under 32 characters) are refused at render time.
    expect(renderFailure(["--set", "secret.internalAuthToken=short"], { token: false })).toMatch(/internalAuthToken/);
    expect(renderFailure(["--set", "secret.consoleOperatorToken=short"])).toMatch(/consoleOperatorToken/);
    expect(renderFailure(["--set", "services.gateway.image.digest=sha256:abc"])).toMatch(/digest/);
    expect(renderFailure(["--set-json", 'secret.keys={"DATABASE_ULR":{"key":"uri"}}'])).toMatch(/keys/);
  });
});

describe("extension points: extraEnv, extraEnvFrom, extraVolumes, extraVolumeMounts, secret.keys, image digests", () => {
  it("adds the global entries to every service and a service's own after them", () => {
    const objects = render([
      "--set-json",
      'extraEnv=[{"name":"OTEL_EXPORTER_OTLP_ENDPOINT","value":"http://otel-collector.observability:4318"}]',
      "--set-json",
      'extraEnvFrom=[{"secretRef":{"name":"nats-credentials"}}]',
      "--set-json",
      'extraVolumes=[{"name":"pg-ca","secret":{"secretName":"pg-ca"}}]',
      "--set-json",
      'extraVolumeMounts=[{"name":"pg-ca","mountPath":"/etc/chaingate/pg-ca","readOnly":true}]',
      "--set-json",
      'services.btc-proxy.extraEnv=[{"name":"NODE_EXTRA_CA_CERTS","value":"/etc/bitcoind/ca.crt"}]',
      "--set-json",
      'services.btc-proxy.extraVolumes=[{"name":"bitcoind-cookie","secret":{"secretName":"bitcoind-cookie"}}]',
      "--set-json",
      'services.btc-proxy.extraVolumeMounts=[{"name":"bitcoind-cookie","mountPath":"/var/run/bitcoind","readOnly":true}]',
      "--set",
      "services.btc-proxy.config.BTC_RPC_COOKIE_FILE=/var/run/bitcoind/.cookie",
    ]);
    checkRendering(objects, SERVICES);
    for (const name of SERVICES) {
      const container = containerOf(objects, name);
      const pod = find(objects, "Deployment", name).spec.template.spec;
      expect(container.env, name).toContainEqual({
        name: "OTEL_EXPORTER_OTLP_ENDPOINT",
        value: "http://otel-collector.observability:4318",
      });
      expect(container.envFrom[1], name).toEqual({ secretRef: { name: "nats-credentials" } });
      expect(
        pod.volumes.map((v: { name: string }) => v.name),
        name,
      ).toEqual(name === "btc-proxy" ? ["tmp", "pg-ca", "bitcoind-cookie"] : ["tmp", "pg-ca"]);
      expect(
        container.volumeMounts.map((m: { mountPath: string }) => m.mountPath),
        name,
      ).toEqual(name === "btc-proxy" ? ["/tmp", "/etc/chaingate/pg-ca", "/var/run/bitcoind"] : ["/tmp", "/etc/chaingate/pg-ca"]);
    }
    const btcEnv = envOf(objects, "btc-proxy").map((e) => e.name);
    expect(btcEnv.slice(-2)).toEqual(["OTEL_EXPORTER_OTLP_ENDPOINT", "NODE_EXTRA_CA_CERTS"]);
    expect(envOf(objects, "gateway").map((e) => e.name)).not.toContain("NODE_EXTRA_CA_CERTS");
  });

  it("refuses an extra entry that would shadow what the chart sets, or a secret given as a literal", () => {
    // A config key (set through the ConfigMap) and a Secret variable the service reads.
    expect(renderFailure(["--set-json", 'extraEnv=[{"name":"LOG_LEVEL","value":"debug"}]'])).toContain("extraEnv LOG_LEVEL");
    expect(
      renderFailure([
        "--set-json",
        'services.xpub.extraEnv=[{"name":"DATABASE_URL","valueFrom":{"secretKeyRef":{"name":"pg","key":"uri"}}}]',
      ]),
    ).toContain("secret.keys");
    // A secret the service does not read from the Secret, given in clear.
    expect(renderFailure(["--set-json", 'services.gateway.extraEnv=[{"name":"ETH_RPC_URL","value":"https://node/KEY"}]'])).toContain(
      "ETH_RPC_URL is a secret",
    );
    // ...but read from a Secret it is fine.
    expect(
      envOf(
        render([
          "--set-json",
          'services.gateway.extraEnv=[{"name":"ETH_RPC_URL","valueFrom":{"secretKeyRef":{"name":"eth","key":"url"}}}]',
        ]),
        "gateway",
      ),
    ).toContainEqual({ name: "ETH_RPC_URL", valueFrom: { secretKeyRef: { name: "eth", key: "url" } } });
    expect(renderFailure(["--set-json", 'extraVolumes=[{"name":"tmp","emptyDir":{}}]'])).toContain("tmp");
    expect(renderFailure(["--set-json", 'extraVolumeMounts=[{"name":"x","mountPath":"/tmp"}]'])).toContain("/tmp");
  });

  it("reads a variable from another key or another Secret (secret.keys): CloudNativePG's uri, not a copy", () => {
    const objects = render([
      "--set-json",
      'secret.keys={"DATABASE_URL":{"name":"chaingate-pg-app","key":"uri"},"NATS_URL":{"key":"nats-url"}}',
    ]);
    checkRendering(objects, SERVICES);
    for (const name of ["gateway", "xpub", "delivery", "scanner"])
      expect(envOf(objects, name).find((e) => e.name === "DATABASE_URL")?.valueFrom?.secretKeyRef).toEqual({
        name: "chaingate-pg-app",
        key: "uri",
      });
    for (const name of ["xpub", "delivery", "scanner"])
      expect(envOf(objects, name).find((e) => e.name === "NATS_URL")?.valueFrom?.secretKeyRef).toEqual({
        name: "chaingate",
        key: "nats-url",
      });
    // The chart-made Secret holds NATS_URL under its new key and no database URL (that lives in CloudNativePG's Secret).
    const data = byKind(objects, "Secret")[0]!.stringData;
    expect(data["nats-url"]).toBe("nats://nats:4222");
    expect(data.NATS_URL).toBeUndefined();
    expect(data.DATABASE_URL).toBeUndefined();
    // The same with an existing Secret for the rest.
    const existing = render(
      ["--set", "secret.existingSecret=ours", "--set-json", 'secret.keys={"INTERNAL_TOKEN":{"key":"internal-token"}}'],
      { token: false },
    );
    expect(envOf(existing, "btc-proxy").find((e) => e.name === "INTERNAL_TOKEN")?.valueFrom?.secretKeyRef).toEqual({
      name: "ours",
      key: "internal-token",
    });
  });

  it("pins an image by digest, which wins over the tag", () => {
    const digest = `sha256:${"ab".repeat(32)}`;
    const objects = render([
      "--set",
      `services.gateway.image.digest=${digest}`,
      "--set",
      "services.gateway.image.tag=9.9.9",
      "--set",
      "image.repository=registry.example.com/cg",
    ]);
    checkRendering(objects, SERVICES);
    expect(containerOf(objects, "gateway").image).toBe(`registry.example.com/cg/gateway@${digest}`);
    expect(containerOf(objects, "xpub").image).toBe("registry.example.com/cg/xpub:0.1.0");
  });
});

describe("INTERNAL_TOKEN and the pods' secret checksum", () => {
  let api: FakeKubeApi;
  beforeAll(async () => {
    api = await startFakeKubeApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it("refuses to generate the token where nothing keeps it (helm template, GitOps tools), instead of a new one at every render", () => {
    const stderr = renderFailure([], { token: false });
    expect(stderr).toContain("secret.internalAuthToken");
    expect(stderr).toContain("would change at every render");
    // Given, it is the same at every render; so is every pod's checksum.
    const first = render([]);
    const second = render([]);
    expect(byKind(first, "Secret")[0]!.stringData.INTERNAL_TOKEN).toBe(TOKEN);
    expect(secretChecksums(second)).toEqual(secretChecksums(first));
    // An existing Secret needs no token value.
    expect(byKind(render(["--set", "secret.existingSecret=ours"], { token: false }), "Secret")).toEqual([]);
  });

  it("rolls exactly the services that read a changed Secret value", () => {
    const before = secretChecksums(render([]));
    const newToken = secretChecksums(render(["--set", `secret.internalAuthToken=${TOKEN}-rotated`]));
    for (const name of SERVICES) expect(newToken[name], `${name} rolls with a new INTERNAL_TOKEN`).not.toBe(before[name]);
    const newEthNode = secretChecksums(render(["--set", "nodes.eth.rpcUrl=https://eth.example.com/v3/KEY"]));
    for (const name of SERVICES)
      expect(newEthNode[name] !== before[name], `${name} rolls with a new ETH_RPC_URL`).toBe(["eth-proxy", "scanner"].includes(name));
    // Secrets taken whole (extraEnvFrom, a Secret volume) count by name here; their data with cluster access (below).
    const withVolume = secretChecksums(
      render(["--set-json", 'services.xpub.extraVolumes=[{"name":"ca","secret":{"secretName":"pg-ca"}}]']),
    );
    expect(withVolume.xpub).not.toBe(before.xpub);
    expect(withVolume.gateway).toBe(before.gateway);
  });

  it("with cluster access: generates the token at the first install, keeps it on upgrade without rolling the pods", async () => {
    const install = await renderWithCluster(api, []);
    const secret = byKind(install, "Secret")[0]!;
    const token = secret.stringData.INTERNAL_TOKEN as string;
    expect(token).toMatch(/^[A-Za-z0-9]{48}$/);
    checkRendering(install, SERVICES);
    api.putSecret(NAMESPACE, secret.metadata.name, secret.stringData);
    const upgrade = await renderWithCluster(api, []);
    expect(byKind(upgrade, "Secret")[0]!.stringData.INTERNAL_TOKEN).toBe(token);
    expect(secretChecksums(upgrade)).toEqual(secretChecksums(install));
    expect(api.requests).toContain(`GET /api/v1/namespaces/${NAMESPACE}/secrets/chaingate`);
    // A value given wins over the kept one, and rolls every pod.
    const rotated = await renderWithCluster(api, ["--set", `secret.internalAuthToken=${TOKEN}`]);
    expect(byKind(rotated, "Secret")[0]!.stringData.INTERNAL_TOKEN).toBe(TOKEN);
    for (const name of SERVICES) expect(secretChecksums(rotated)[name]).not.toBe(secretChecksums(upgrade)[name]);
  });

  it("with cluster access: the checksum follows the values of Secrets the chart does not make", async () => {
    const values = {
      DATABASE_URL: "postgres://a@pg/db",
      NATS_URL: "nats://nats:4222",
      INTERNAL_TOKEN: TOKEN,
      ETH_RPC_URL: "https://one.example.com",
    };
    api.putSecret(NAMESPACE, "external", values);
    api.putSecret(NAMESPACE, "pg-ca", { "ca.crt": "first CA" });
    const args = [
      "--set",
      "secret.existingSecret=external",
      "--set-json",
      'services.xpub.extraVolumes=[{"name":"ca","secret":{"secretName":"pg-ca"}}]',
    ];
    const before = secretChecksums(await renderWithCluster(api, args));
    api.putSecret(NAMESPACE, "external", { ...values, ETH_RPC_URL: "https://two.example.com" });
    api.putSecret(NAMESPACE, "pg-ca", { "ca.crt": "second CA" });
    const after = secretChecksums(await renderWithCluster(api, args));
    for (const name of SERVICES) expect(after[name] !== before[name], name).toBe(["eth-proxy", "scanner", "xpub"].includes(name));
  });
});

describe("drains: preStop and terminationGracePeriodSeconds", () => {
  it("waits before SIGTERM (except the scanner, which nothing routes to) and gives each service more than its drain", () => {
    const objects = render([]);
    for (const name of SERVICES) {
      const container = containerOf(objects, name);
      expect(preStopSeconds(container), name).toBe(name === "scanner" ? 0 : 5);
      // The image (node:22-bookworm-slim, or the local debootstrap base) has coreutils' sleep;
      // exec works on every Kubernetes the chart supports (the sleep action needs 1.30).
      if (name !== "scanner") expect(container.lifecycle.preStop.exec.command).toEqual(["sleep", "5"]);
      // A margin of 10 s or more over the whole shutdown.
      expect(
        find(objects, "Deployment", name).spec.template.spec.terminationGracePeriodSeconds - shutdownSeconds(objects, name),
        name,
      ).toBeGreaterThanOrEqual(10);
    }
    // Delivery's shutdown takes about 30 s (drain, attempts in flight, flush): its grace period exceeds preStop + that with margin.
    expect(find(objects, "Deployment", "delivery").spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(5 + 30 + 10);
  });

  it("refuses a grace period shorter than the drain, naming the numbers", () => {
    expect(renderFailure(["--set", "services.delivery.terminationGracePeriodSeconds=30"])).toContain(
      "services.delivery.terminationGracePeriodSeconds (30) is shorter than its shutdown",
    );
    // Raising the drain without the grace period.
    expect(renderFailure(["--set", "services.gateway.config.DRAIN_TIMEOUT_MS=60000"])).toContain("= 70 s");
    expect(
      find(
        render(["--set", "services.gateway.config.DRAIN_TIMEOUT_MS=60000", "--set", "services.gateway.terminationGracePeriodSeconds=80"]),
        "Deployment",
        "gateway",
      ),
    ).toBeDefined();
  });

  it("uses the kubelet's sleep action when asked, on Kubernetes 1.30 and later only", () => {
    const objects = render(["--set", "serviceDefaults.preStop.handler=sleep", "--kube-version", "1.30.0"]);
    checkRendering(objects, SERVICES);
    expect(containerOf(objects, "gateway").lifecycle.preStop).toEqual({ sleep: { seconds: 5 } });
    expect(renderFailure(["--set", "serviceDefaults.preStop.handler=sleep", "--kube-version", "1.29.0"])).toContain(
      "needs Kubernetes 1.30",
    );
  });
});

describe("resources", () => {
  it("sizes each service on its own, the gateway's memory on its body budget", () => {
    const objects = render([]);
    const limit = (name: string) => bytes(containerOf(objects, name).resources.limits.memory);
    // Twice the 256 MiB budget plus the process, where it used to be the same 512 Mi as every service.
    expect(limit("gateway")).toBeGreaterThanOrEqual(2 * MAX_BUFFERED_BODY_BYTES + 256 * 2 ** 20);
    // The scanner holds the watched addresses (about 116 B each, 332 MiB for 3 × 1,000,000).
    expect(limit("scanner")).toBeGreaterThanOrEqual(1024 * 2 ** 20);
    expect(limit("btc-proxy")).toBeLessThan(limit("gateway"));
    // A smaller limit is refused unless the budget comes down with it.
    expect(renderFailure(["--set", "services.gateway.resources.limits.memory=512Mi"])).toContain("MAX_BUFFERED_BODY_BYTES");
    const smaller = render([
      "--set",
      "services.gateway.resources.limits.memory=512Mi",
      "--set",
      "services.gateway.config.MAX_BUFFERED_BODY_BYTES=134217728",
    ]);
    checkRendering(smaller, SERVICES);
  });
});

describe("monitoring: metrics ports, ServiceMonitor or PodMonitor, alert rules", () => {
  const defined = definedMetrics(repoRoot);

  it("names a metrics port on every Service and scrapes it with a ServiceMonitor, or the pods with a PodMonitor, never both", () => {
    const objects = render([
      "--set",
      "metrics.serviceMonitor.enabled=true",
      "--set-json",
      'metrics.serviceMonitor.labels={"release":"kube-prometheus-stack"}',
    ]);
    checkRendering(objects, SERVICES);
    const [monitor] = byKind(objects, "ServiceMonitor");
    expect(monitor!.metadata.labels!.release).toBe("kube-prometheus-stack");
    expect(monitor!.spec.endpoints).toEqual([expect.objectContaining({ port: "metrics", path: "/metrics" })]);
    expect(monitor!.spec.namespaceSelector).toEqual({ matchNames: [NAMESPACE] });
    // It selects every service's Service, each of which has the port.
    for (const service of byKind(objects, "Service")) {
      expect(selects(monitor!.spec.selector, service.metadata.labels), service.metadata.name).toBe(true);
      expect(
        service.spec.ports.map((p: { name: string }) => p.name),
        service.metadata.name,
      ).toContain("metrics");
    }
    const pods = render(["--set", "metrics.podMonitor.enabled=true"]);
    checkRendering(pods, SERVICES);
    const [podMonitor] = byKind(pods, "PodMonitor");
    expect(podMonitor!.spec.podMetricsEndpoints).toEqual([expect.objectContaining({ port: "metrics" })]);
    for (const deployment of byKind(pods, "Deployment"))
      expect(selects(podMonitor!.spec.selector, deployment.spec.template.metadata.labels)).toBe(true);
    expect(renderFailure(["--set", "metrics.serviceMonitor.enabled=true", "--set", "metrics.podMonitor.enabled=true"])).toContain(
      "scraped twice",
    );
    expect(renderFailure(["--set", "metrics.serviceMonitor.enabled=true", "--set", "services.scanner.metricsPort=0"])).toContain(
      "metricsPort is 0",
    );
  });

  it("ships alerts for what operators must hear about, in PromQL that parses and names only metrics the services define", () => {
    const objects = render(["--set", "metrics.prometheusRule.enabled=true"]);
    checkRendering(objects, SERVICES);
    const rules = byKind(objects, "PrometheusRule")[0]!.spec.groups.flatMap((g: { rules: unknown[] }) => g.rules) as Array<{
      alert: string;
      expr: string;
      for?: string;
    }>;
    expect(rules.map((r) => r.alert).sort()).toEqual([
      "ChaingateChainHeadStale",
      "ChaingateDeliveryBacklog",
      "ChaingateNodeBehind",
      "ChaingateScannerAbsent",
      "ChaingateScannerLagging",
      "ChaingateScannerNoLeader",
      "ChaingateScannerStopped",
      "ChaingateWebhookBreakersOpen",
      "ChaingateWebhookDisabled",
    ]);
    for (const rule of rules) {
      const parsed = parsePromQl(rule.expr);
      expect(parsed.errors, `${rule.alert}: ${rule.expr}`).toEqual([]);
      for (const metric of parsed.metrics)
        expect(isDefined(metric, defined), `${rule.alert}: ${metric} is defined in services/`).toBe(true);
      // Scoped to the release's namespace, so another installation's series do not count.
      for (const selector of parsed.selectors) expect(selector, rule.alert).toContain(`namespace="${NAMESPACE}"`);
    }
    const rule = (alert: string) => rules.find((r) => r.alert === alert)!;
    expect(rule("ChaingateScannerNoLeader").expr).toContain("scanner_leader");
    expect(rule("ChaingateScannerNoLeader").for).toBe("2m");
    expect(rule("ChaingateScannerLagging").expr).toContain("scanner_lag_blocks");
    expect(rule("ChaingateNodeBehind").expr).toContain("scanner_node_behind_blocks");
    expect(rule("ChaingateChainHeadStale").expr).toContain(
      'min by (chain) (scanner_head_age_seconds{namespace="chaingate",chain="btc"}) > 5400',
    );
    expect(rule("ChaingateScannerNoLeader").expr).toContain("scanner_chain_followed");
    expect(rule("ChaingateWebhookBreakersOpen").expr).toContain("delivery_webhook_breakers_open");
    expect(rule("ChaingateDeliveryBacklog").expr).toContain('delivery_queue_jobs{namespace="chaingate",state="due"}');
    expect(rule("ChaingateWebhookDisabled").expr).toContain("delivery_webhooks_disabled_total");
    // Without the scanner, no scanner rules; an alert switched off is left out.
    const noScanner = render([
      "--set",
      "metrics.prometheusRule.enabled=true",
      "--set",
      "services.scanner.enabled=false",
      "--set",
      "metrics.prometheusRule.alerts.webhookDisabled.enabled=false",
    ]);
    const names = byKind(noScanner, "PrometheusRule")[0]!.spec.groups.flatMap((g: { rules: Array<{ alert: string }> }) =>
      g.rules.map((r) => r.alert),
    );
    expect(names.sort()).toEqual(["ChaingateDeliveryBacklog", "ChaingateWebhookBreakersOpen"]);
  });
});

describe("network policy additions", () => {
  it("lets every service reach an OpenTelemetry collector through networkPolicy.extraEgress, and one service through its own", () => {
    const collector = inNamespace("observability", { app: "otel-collector" });
    const toCollector =
      '[{"to":[{"namespaceSelector":{"matchLabels":{"kubernetes.io/metadata.name":"observability"}}}],"ports":[{"port":4318,"protocol":"TCP"}]}]';
    const before = render([]);
    expect(allowed(policiesOf(before), podOf(find(before, "Deployment", "gateway")), collector, 4318)).toBe(false);
    const all = render(["--set-json", `networkPolicy.extraEgress=${toCollector}`]);
    checkRendering(all, SERVICES);
    for (const name of SERVICES) expect(allowed(policiesOf(all), podOf(find(all, "Deployment", name)), collector, 4318), name).toBe(true);
    expect(allowed(policiesOf(all), podOf(find(all, "Deployment", "gateway")), collector, 4317)).toBe(false);
    const one = render(["--set-json", `services.scanner.extraEgress=${toCollector}`]);
    for (const name of SERVICES)
      expect(allowed(policiesOf(one), podOf(find(one, "Deployment", name)), collector, 4318), name).toBe(name === "scanner");
  });
});

describe("ingress", () => {
  it("routes a TLS host to the gateway's Service, and refuses a host without TLS", () => {
    const hosts = '[{"host":"api.example.com"}]';
    const objects = render([
      "--set",
      "ingress.enabled=true",
      "--set",
      "ingress.className=nginx",
      "--set-json",
      `ingress.hosts=${hosts}`,
      "--set-json",
      'ingress.tls=[{"secretName":"chaingate-tls","hosts":["api.example.com"]}]',
    ]);
    checkRendering(objects, SERVICES);
    const [ingress] = byKind(objects, "Ingress");
    expect(ingress!.spec.ingressClassName).toBe("nginx");
    expect(ingress!.spec.tls).toEqual([{ secretName: "chaingate-tls", hosts: ["api.example.com"] }]);
    const gatewayService = find(objects, "Service", "gateway");
    expect(ingress!.spec.rules[0]).toEqual({
      host: "api.example.com",
      http: {
        paths: [{ path: "/", pathType: "Prefix", backend: { service: { name: gatewayService.metadata.name, port: { name: "http" } } } }],
      },
    });
    expect(gatewayService.spec.ports.map((p: { name: string }) => p.name)).toContain("http");
    expect(renderFailure(["--set", "ingress.enabled=true", "--set-json", `ingress.hosts=${hosts}`])).toContain(
      "api.example.com has no TLS entry",
    );
    expect(
      byKind(
        render(["--set", "ingress.enabled=true", "--set-json", `ingress.hosts=${hosts}`, "--set", "ingress.allowWithoutTls=true"]),
        "Ingress",
      ),
    ).toHaveLength(1);
    expect(
      renderFailure([
        "--set",
        "ingress.enabled=true",
        "--set-json",
        `ingress.hosts=${hosts}`,
        "--set",
        "services.gateway.enabled=false",
        "--set",
        "ingress.allowWithoutTls=true",
      ]),
    ).toContain("services.gateway.enabled is false");
  });
});
