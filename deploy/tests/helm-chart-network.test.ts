/**
 * The Helm chart's network: delivery's route to xpub, the peers that push block notifications to the
 * scanner, NetworkPolicy additions and the Ingress to the gateway.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkRendering } from "./check-rendering.ts";
import { allowed } from "./network-policy.ts";
import {
  kubernetesTools,
  NAMESPACE,
  SERVICES,
  render,
  renderFailure,
  byKind,
  find,
  envOf,
  podOf,
  policiesOf,
  inNamespace,
} from "./helm-chart-rendering.ts";
beforeAll(() => {
  kubernetesTools();
});

describe("helm chart deploy/helm/chaingate", () => {
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
