/**
 * The checks every rendering of the Helm chart must pass, whatever the values: objects valid against
 * their schemas, each Deployment's pod, Service, ConfigMap, PDB and HPA, the Secret keys pods need,
 * the internal URLs, and the NetworkPolicies.
 */
import { expect } from "vitest";
import { allowed, selects, type Endpoint } from "./network-policy.ts";
import { unknownFields } from "./prometheus-objects.ts";
import {
  byKind,
  bytes,
  calls,
  component,
  containerOf,
  find,
  FORBIDDEN_WEBHOOK_ADDRESSES,
  inNamespace,
  MAX_BUFFERED_BODY_BYTES,
  MODELS,
  NAMESPACE,
  podOf,
  policiesOf,
  PUBLIC_WEBHOOK_ADDRESSES,
  shutdownSeconds,
  STATELESS,
  UPSTREAM_ENV,
  type EnvEntry,
  type K8sObject,
} from "./helm-chart-rendering.ts";

interface RenderingOptions {
  /** Services rendered without a PodDisruptionBudget. */
  withoutPdb?: string[];
  /** Whether pods must spread over nodes and zones. */
  spread?: boolean;
}

/** The checks every rendering must pass, whatever the values. */
export function checkRendering(
  objects: K8sObject[],
  expectedServices: string[],
  { withoutPdb = [] as string[], spread = true } = {},
): void {
  checkModels(objects);
  const deployments = byKind(objects, "Deployment");
  expect(deployments.map(component).sort()).toEqual([...expectedServices].sort());
  for (const deployment of deployments) checkDeployment(objects, deployment, deployments, { withoutPdb, spread });
  for (const hpa of byKind(objects, "HorizontalPodAutoscaler")) {
    expect(deployments.map((d) => d.metadata.name)).toContain(hpa.spec.scaleTargetRef.name);
  }

  // The gateway's memory limit holds its body budget twice (bodies are concatenated once while forwarded) plus the process.
  if (expectedServices.includes("gateway")) {
    const budget = Number(find(objects, "ConfigMap", "gateway").data.MAX_BUFFERED_BODY_BYTES ?? MAX_BUFFERED_BODY_BYTES);
    expect(bytes(containerOf(objects, "gateway").resources.limits.memory)).toBeGreaterThanOrEqual(2 * budget + 256 * 2 ** 20);
  }
  checkSecretKeys(objects, deployments);
  checkUpstreamUrls(objects, expectedServices);
  checkNetworkPolicies(objects, deployments, expectedServices);
}

/** Every object is of a kind the chart may emit and valid against its model. */
function checkModels(objects: K8sObject[]): void {
  for (const object of objects) {
    const Model = MODELS[`${object.apiVersion}/${object.kind}`];
    expect(Model, `${object.apiVersion} ${object.kind} ${object.metadata.name} is not an expected kind`).toBeDefined();
    expect(() => new Model!(object as never).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
    if (object.apiVersion.startsWith("monitoring.coreos.com/")) expect(unknownFields(object), `${object.kind} fields`).toEqual([]);
  }
}

/** A Deployment's pod: selectors, security, probes, resources, grace period, spreading; then its other objects. */
function checkDeployment(
  objects: K8sObject[],
  deployment: K8sObject,
  deployments: K8sObject[],
  { withoutPdb = [], spread = true }: RenderingOptions,
): void {
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
  expect(pod.terminationGracePeriodSeconds, `${name}: grace period ≥ its shutdown`).toBeGreaterThanOrEqual(shutdownSeconds(objects, name));

  // Spreading counts this service's pods, and only them.
  const constraints: Array<{ topologyKey: string; labelSelector?: { matchLabels?: Record<string, string> } }> =
    pod.topologySpreadConstraints ?? [];
  if (spread) expect(constraints.map((c) => c.topologyKey).sort(), name).toEqual(["kubernetes.io/hostname", "topology.kubernetes.io/zone"]);
  for (const constraint of constraints) {
    expect(constraint.labelSelector, `${name}: ${constraint.topologyKey} spread has a labelSelector`).toBeDefined();
    expect(selects(constraint.labelSelector, podLabels), `${name}: ${constraint.topologyKey} spread selects its pods`).toBe(true);
    for (const other of deployments.filter((d) => d !== deployment))
      expect(selects(constraint.labelSelector, other.spec.template.metadata.labels), `${name} spread counts ${component(other)}`).toBe(
        false,
      );
  }

  checkServiceObjects(objects, deployment, deployments, withoutPdb);
}

/** A Deployment's Service, ConfigMap, PodDisruptionBudget and HorizontalPodAutoscaler. */
function checkServiceObjects(objects: K8sObject[], deployment: K8sObject, deployments: K8sObject[], withoutPdb: string[]): void {
  const name = component(deployment)!;
  const podLabels = deployment.spec.template.metadata.labels;
  const container = deployment.spec.template.spec.containers[0];
  const portNames = container.ports.map((p: { name: string }) => p.name);
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

/** Every Secret key a pod requires exists in the Secret it names (optional keys may be absent). */
function checkSecretKeys(objects: K8sObject[], deployments: K8sObject[]): void {
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
}

/**
 * Each caller (the gateway, delivery) finds every enabled internal service it calls at its
 * Service's name and port; no service is given a URL it does not call or one that is off.
 */
function checkUpstreamUrls(objects: K8sObject[], expectedServices: string[]): void {
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
}

/** NetworkPolicy: every pod selected for ingress and egress; only the gateway reachable from outside. */
function checkNetworkPolicies(objects: K8sObject[], deployments: K8sObject[], expectedServices: string[]): void {
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
