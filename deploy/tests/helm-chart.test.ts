/**
 * The Helm chart deploy/helm/chaingate: `helm lint` and `helm template` with the default values, the
 * production-like values (deploy/helm/production-values.yaml) and a service switched off; every
 * rendered object validated against the Kubernetes schemas (kubernetes-models), then what an
 * operator relies on: probes, selectors that match their pods, one HPA per stateless service, PDBs,
 * the gateway as the only reachable service, each internal service reachable only by the services
 * that call it (the gateway; delivery → xpub), secrets from an existing Secret.
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
import { Job } from "kubernetes-models/batch/v1/Job";
import { parseAllDocuments } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { deployDir, run, unpackKubernetesTools, type KubernetesTools } from "./kubernetes-tools.ts";
import { allowed, selects, type Endpoint, type NetworkPolicySpec } from "./network-policy.ts";

const chartDir = path.join(deployDir, "helm", "chaingate");
const productionValues = path.join(deployDir, "helm", "production-values.yaml");
const NAMESPACE = "chaingate";

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

/** The API versions and kinds the chart may emit: GA APIs only, each validated by its model. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/ServiceAccount": ServiceAccount,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "batch/v1/Job": Job,
};

// The rendered objects are checked field by field below; a loose shape keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; [key: string]: any };

let tools: KubernetesTools;

function helm(args: string[]): string {
  const result = run(tools.helm, args);
  if (result.status !== 0) throw new Error(`helm ${args.join(" ")} exited ${result.status}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

function render(extraArgs: string[]): K8sObject[] {
  const out = helm(["template", "chaingate", chartDir, "--namespace", NAMESPACE, ...extraArgs]);
  return parseAllDocuments(out)
    .map((doc) => {
      if (doc.errors.length) throw doc.errors[0];
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const component = (o: K8sObject) => o.metadata.labels?.["app.kubernetes.io/component"];
const find = (objects: K8sObject[], kind: string, service: string) => {
  const found = objects.find((o) => o.kind === kind && component(o) === service);
  if (!found) throw new Error(`no ${kind} for ${service}`);
  return found;
};

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

/** The checks every rendering must pass, whatever the values. */
function checkRendering(objects: K8sObject[], expectedServices: string[], { withoutPdb = [] as string[] } = {}): void {
  for (const object of objects) {
    const Model = MODELS[`${object.apiVersion}/${object.kind}`];
    expect(Model, `${object.apiVersion} ${object.kind} ${object.metadata.name} is not an expected GA kind`).toBeDefined();
    expect(() => new Model!(object as never).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
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

    // Its Service selects exactly its pods and targets a port the container has.
    const service = find(objects, "Service", name);
    expect(selects({ matchLabels: service.spec.selector }, podLabels)).toBe(true);
    for (const other of deployments.filter((d) => d !== deployment)) {
      expect(selects({ matchLabels: service.spec.selector }, other.spec.template.metadata.labels)).toBe(false);
    }
    for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);

    // Its ConfigMap is the one the pod reads, and listens where the probes look.
    const configMap = find(objects, "ConfigMap", name);
    expect(container.envFrom).toContainEqual({ configMapRef: { name: configMap.metadata.name } });
    expect(configMap.data.HOST).toBe("0.0.0.0");
    expect(Number(configMap.data.PORT)).toBe(container.ports.find((p: { name: string }) => p.name === "http").containerPort);

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
  const strangerPod: Endpoint = {
    podLabels: { app: "something-else" },
    namespace: NAMESPACE,
    namespaceLabels: { "kubernetes.io/metadata.name": NAMESPACE },
  };
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
  // private ranges; the gateway and xpub reach no node.
  const publicNode: Endpoint = { ip: "198.51.100.10" };
  for (const name of expectedServices) {
    const pod = podOf(find(objects, "Deployment", name));
    const callsNodes = ["btc-proxy", "eth-proxy", "trx-proxy", "scanner"].includes(name);
    expect(allowed(policies, pod, publicNode, 8332), `${name} → a node`).toBe(callsNodes || name === "delivery");
  }
  if (expectedServices.includes("delivery")) {
    const delivery = podOf(find(objects, "Deployment", "delivery"));
    expect(allowed(policies, delivery, { ip: "93.184.216.34" }, 443)).toBe(true);
    expect(allowed(policies, delivery, { ip: "10.1.2.3" }, 443)).toBe(false);
    expect(allowed(policies, delivery, { ip: "169.254.169.254" }, 80)).toBe(false);
  }
}

beforeAll(() => {
  tools = unpackKubernetesTools();
});

describe("helm chart deploy/helm/chaingate", () => {
  it("passes helm lint with the default and the production-like values", () => {
    expect(helm(["lint", chartDir, "--strict"])).toContain("0 chart(s) failed");
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
  });

  it("lets delivery read xpub's key histories: XPUB_URL to the xpub Service, delivery → xpub open, nothing else", () => {
    const objects = render([]);
    const xpubService = find(objects, "Service", "xpub");
    expect(find(objects, "ConfigMap", "delivery").data.XPUB_URL).toBe(`http://${xpubService.metadata.name}:8080`);
    expect(xpubService.metadata.name).toBe("chaingate-xpub");
    // Delivery sends INTERNAL_TOKEN with its reads, as the gateway does.
    expect(find(objects, "Deployment", "delivery").spec.template.spec.containers[0].env.map((e: { name: string }) => e.name)).toContain(
      "INTERNAL_TOKEN",
    );
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
    const lookalike: Endpoint = {
      podLabels: {
        "app.kubernetes.io/name": "chaingate",
        "app.kubernetes.io/instance": "chaingate",
        "app.kubernetes.io/component": "xpub",
      },
      namespace: NAMESPACE,
      namespaceLabels: { "kubernetes.io/metadata.name": NAMESPACE },
    };
    expect(allowed(policies, delivery, lookalike, 8080)).toBe(false);
  });

  it("renders valid objects with production-like values: existing Secret, ingress only from the ingress controller", () => {
    const objects = render(["-f", productionValues]);
    checkRendering(objects, SERVICES);
    expect(byKind(objects, "Secret")).toHaveLength(0);
    for (const deployment of byKind(objects, "Deployment")) {
      for (const env of deployment.spec.template.spec.containers[0].env) {
        expect(env.valueFrom.secretKeyRef.name).toBe("chaingate-secrets");
      }
      expect(deployment.spec.template.spec.containers[0].image).toBe(`registry.example.com/chaingate/${component(deployment)}:0.1.0`);
    }
    const policies = policiesOf(objects);
    const gateway = podOf(find(objects, "Deployment", "gateway"));
    const ingressController: Endpoint = {
      podLabels: { app: "ingress-nginx" },
      namespace: "ingress-nginx",
      namespaceLabels: { "kubernetes.io/metadata.name": "ingress-nginx" },
    };
    const prometheus: Endpoint = {
      podLabels: { app: "prometheus" },
      namespace: "monitoring",
      namespaceLabels: { "kubernetes.io/metadata.name": "monitoring" },
    };
    expect(allowed(policies, ingressController, gateway, 8080)).toBe(true);
    expect(allowed(policies, { ip: "203.0.113.7" }, gateway, 8080)).toBe(false);
    // Prometheus scrapes every service, the scanner included.
    for (const name of SERVICES)
      expect(allowed(policies, prometheus, podOf(find(objects, "Deployment", name)), 9464), `scrape ${name}`).toBe(true);
    expect(allowed(policies, ingressController, gateway, 9464), "the ingress controller reaches the gateway's metrics").toBe(false);
    // Postgres only in its namespace.
    const xpub = podOf(find(objects, "Deployment", "xpub"));
    const postgres: Endpoint = {
      podLabels: { app: "pg" },
      namespace: "databases",
      namespaceLabels: { "kubernetes.io/metadata.name": "databases" },
    };
    expect(allowed(policies, xpub, postgres, 5432)).toBe(true);
    expect(
      allowed(policies, xpub, { ...postgres, namespace: "other", namespaceLabels: { "kubernetes.io/metadata.name": "other" } }, 5432),
    ).toBe(false);
    expect(find(objects, "Deployment", "scanner").spec.replicas).toBe(2);
    expect(find(objects, "HorizontalPodAutoscaler", "gateway").spec).toMatchObject({ minReplicas: 3, maxReplicas: 20 });
    expect(find(objects, "ConfigMap", "gateway").data.API_KEY_CACHE_SIZE).toBe("50000");
    // Every service on the bus creates its streams with the cluster's three copies; the others are not told.
    for (const name of ["xpub", "delivery", "scanner"]) expect(find(objects, "ConfigMap", name).data.NATS_STREAM_REPLICAS, name).toBe("3");
    expect(find(objects, "ConfigMap", "gateway").data.NATS_STREAM_REPLICAS).toBeUndefined();
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
    const bitcoinNs: Endpoint = {
      podLabels: { app: "bitcoind" },
      namespace: "btc",
      namespaceLabels: { "kubernetes.io/metadata.name": "btc" },
    };
    const other: Endpoint = {
      podLabels: { app: "bitcoind" },
      namespace: "other",
      namespaceLabels: { "kubernetes.io/metadata.name": "other" },
    };
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
    const env = find(withPeers, "Deployment", "scanner").spec.template.spec.containers[0].env.map((entry: { name: string }) => entry.name);
    expect(env).toEqual(expect.arrayContaining(["INTERNAL_TOKEN", "BTC_ZMQ_URL", "ETH_WS_URL"]));
    expect(byKind(withPeers, "Secret")[0]!.stringData.BTC_ZMQ_URL).toBe("tcp://bitcoind.btc.svc:28332");
    const without = render([]);
    expect(allowed(policiesOf(without), bitcoinNs, podOf(find(without, "Deployment", "scanner")), port)).toBe(false);
  });

  it("takes secrets from the Secret only: the console's operator token by secretKeyRef, the internal token never optional, a secret in plain config refused", () => {
    const objects = render(["--set", "secret.consoleOperatorToken=op-token-from-values"]);
    expect(byKind(objects, "Secret")[0]!.stringData.CONSOLE_OPERATOR_TOKEN).toBe("op-token-from-values");
    const gatewayEnv = find(objects, "Deployment", "gateway").spec.template.spec.containers[0].env as Array<{
      name: string;
      valueFrom: { secretKeyRef: { key: string; optional?: boolean } };
    }>;
    expect(gatewayEnv.find((entry) => entry.name === "CONSOLE_OPERATOR_TOKEN")?.valueFrom.secretKeyRef.key).toBe("CONSOLE_OPERATOR_TOKEN");
    expect(find(objects, "ConfigMap", "gateway").data.CONSOLE_OPERATOR_TOKEN).toBeUndefined();
    // An existing Secret without INTERNAL_TOKEN must stop the pods, not switch the internal routes' check off.
    for (const deployment of byKind(objects, "Deployment")) {
      const internal = deployment.spec.template.spec.containers[0].env.find((entry: { name: string }) => entry.name === "INTERNAL_TOKEN");
      expect(internal?.valueFrom.secretKeyRef.optional, component(deployment)).toBeUndefined();
    }
    for (const key of ["CONSOLE_OPERATOR_TOKEN", "INTERNAL_TOKEN", "DATABASE_URL", "TRON_NODE_API_KEY"]) {
      const result = run(tools.helm, ["template", "chaingate", chartDir, "--set", `services.gateway.config.${key}=plain`]);
      expect(result.status, key).not.toBe(0);
      expect(result.stderr).toContain(`${key} is a secret`);
    }
  });
});
