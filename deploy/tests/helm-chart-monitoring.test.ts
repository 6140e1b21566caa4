/**
 * The Helm chart's monitoring: metrics ports, a ServiceMonitor or PodMonitor, and alert rules that
 * parse and name metrics the services define.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkRendering } from "./check-rendering.ts";
import { repoRoot } from "./kubernetes-tools.ts";
import { selects } from "./network-policy.ts";
import { definedMetrics, isDefined, parsePromQl } from "./prometheus-objects.ts";
import { kubernetesTools, NAMESPACE, SERVICES, render, renderFailure, byKind } from "./helm-chart-rendering.ts";
beforeAll(() => {
  kubernetesTools();
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
