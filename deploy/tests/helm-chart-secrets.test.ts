/**
 * The Helm chart's secrets: taken from the Secret only, and an INTERNAL_TOKEN that stays the same from
 * render to render; `lookup` is exercised against a fake API server (fake-kube-api.ts) through
 * `helm template --dry-run=server`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkRendering } from "./check-rendering.ts";
import { startFakeKubeApi, type FakeKubeApi } from "./fake-kube-api.ts";
import {
  kubernetesTools,
  NAMESPACE,
  TOKEN,
  SERVICES,
  render,
  renderFailure,
  renderWithCluster,
  byKind,
  component,
  find,
  envOf,
  secretChecksums,
} from "./helm-chart-rendering.ts";
beforeAll(() => {
  kubernetesTools();
});

describe("helm chart deploy/helm/chaingate", () => {
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

  it("puts the EVM chains (nodes.evmChains) into the Secret as EVM_CHAINS, read by the gateway, eth-proxy, xpub, delivery and scanner only", () => {
    const chains = [
      { name: "polygon", rpc_urls: ["https://polygon.example/v3/KEY"] },
      { name: "bsc", rpc_urls: ["https://bsc.example"] },
    ];
    const objects = render(["--set-json", `nodes.evmChains=${JSON.stringify(chains)}`]);
    expect(JSON.parse(byKind(objects, "Secret")[0]!.stringData.EVM_CHAINS!)).toEqual(chains);
    const readers = SERVICES.filter((service) => envOf(objects, service).some((entry) => entry.name === "EVM_CHAINS"));
    expect(readers.sort()).toEqual(["delivery", "eth-proxy", "gateway", "scanner", "xpub"]);
    expect(envOf(objects, "scanner").find((entry) => entry.name === "EVM_CHAINS")?.valueFrom?.secretKeyRef?.key).toBe("EVM_CHAINS");
    // None configured: nothing in the Secret (the services' default is Ethereum alone).
    expect(byKind(render([]), "Secret")[0]!.stringData.EVM_CHAINS).toBeUndefined();
    expect(renderFailure(["--set-json", 'nodes.evmChains=[{"name":"Polygon"}]'])).toContain("evmChains");
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
