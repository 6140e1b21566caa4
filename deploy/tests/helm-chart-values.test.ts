/**
 * The Helm chart's values: a values schema that refuses what it does not know, and the extension
 * points (extraEnv, extraEnvFrom, extraVolumes, extraVolumeMounts, secret.keys, image digests).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkRendering } from "./check-rendering.ts";
import { run } from "./kubernetes-tools.ts";
import { kubernetesTools, chartDir, SERVICES, render, renderFailure, byKind, find, containerOf, envOf } from "./helm-chart-rendering.ts";
beforeAll(() => {
  kubernetesTools();
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
    const lint = run(kubernetesTools().helm, ["lint", chartDir, "--strict", "--set", "services.gatway.enabled=false"]);
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
