/**
 * The Helm chart deploy/helm/chaingate: `helm lint` and `helm template` with the default values, the
 * production-like values (deploy/helm/production-values.yaml) and a service switched off; every
 * rendered object validated against the Kubernetes schemas (kubernetes-models; the Prometheus
 * Operator's objects with @kubernetes-models/prometheus-operator and a check of their fields), then
 * what an operator relies on (check-rendering.ts): probes, selectors that match their pods, one HPA
 * per stateless service, PDBs, spreading over nodes and zones, drains that fit their grace period,
 * the gateway as the only reachable service, each internal service reachable only by the services
 * that call it (the gateway; delivery → xpub). The other subjects are in helm-chart-*.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkRendering } from "./check-rendering.ts";
import { allowed } from "./network-policy.ts";
import {
  kubernetesTools,
  chartDir,
  productionValues,
  TOKEN,
  SERVICES,
  type EnvEntry,
  helm,
  render,
  byKind,
  component,
  find,
  containerOf,
  podOf,
  policiesOf,
  inNamespace,
} from "./helm-chart-rendering.ts";
beforeAll(() => {
  kubernetesTools();
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
});
