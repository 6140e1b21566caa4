/**
 * The Helm chart's pods: spreading over zones and nodes, drains (preStop and
 * terminationGracePeriodSeconds) and each service's resources.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkRendering } from "./check-rendering.ts";
import { selects } from "./network-policy.ts";
import {
  kubernetesTools,
  productionValues,
  SERVICES,
  MAX_BUFFERED_BODY_BYTES,
  render,
  renderFailure,
  byKind,
  find,
  containerOf,
  bytes,
  preStopSeconds,
  shutdownSeconds,
} from "./helm-chart-rendering.ts";
beforeAll(() => {
  kubernetesTools();
});

describe("helm chart deploy/helm/chaingate", () => {
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
