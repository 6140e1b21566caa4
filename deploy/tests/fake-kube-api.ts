/**
 * The part of a Kubernetes API server that Helm's `lookup` uses, on loopback: API discovery for
 * v1, and GET of Secrets (one, or the list of a namespace) from an in-memory store. With it,
 * `helm template --dry-run=server --kubeconfig <file>` renders as `helm install`/`upgrade` do
 * against a cluster, so the chart's lookups (the kept INTERNAL_TOKEN, the checksums of Secrets it
 * does not make) are tested without one.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface FakeKubeApi {
  /** A kubeconfig file pointing at this server. */
  kubeconfig: string;
  /** Stores (or replaces) a Secret, its values given in clear. */
  putSecret(namespace: string, name: string, stringData: Record<string, string>): void;
  /** Requests received, as "GET /path". */
  requests: string[];
  close(): Promise<void>;
}

const API_RESOURCES = {
  kind: "APIResourceList",
  apiVersion: "v1",
  groupVersion: "v1",
  resources: [{ name: "secrets", singularName: "secret", namespaced: true, kind: "Secret", verbs: ["get", "list"] }],
};

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function startFakeKubeApi(): Promise<FakeKubeApi> {
  const secrets = new Map<string, Map<string, object>>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    requests.push(`${req.method} ${url.pathname}`);
    if (req.method !== "GET") return answer(res, 405, { kind: "Status", apiVersion: "v1", status: "Failure", code: 405 });
    if (url.pathname === "/api/v1") return answer(res, 200, API_RESOURCES);
    const match = /^\/api\/v1\/namespaces\/([^/]+)\/secrets(?:\/([^/]+))?$/.exec(url.pathname);
    if (match) {
      const inNamespace = secrets.get(match[1]!) ?? new Map<string, object>();
      if (!match[2]) return answer(res, 200, { kind: "SecretList", apiVersion: "v1", metadata: {}, items: [...inNamespace.values()] });
      const secret = inNamespace.get(match[2]);
      if (secret) return answer(res, 200, secret);
    }
    answer(res, 404, {
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      reason: "NotFound",
      code: 404,
      message: `${url.pathname} not found`,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const dir = mkdtempSync(path.join(tmpdir(), "fake-kube-api-"));
  const kubeconfig = path.join(dir, "kubeconfig");
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "fake", cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: "fake", user: { token: "fake" } }],
      contexts: [{ name: "fake", context: { cluster: "fake", user: "fake" } }],
      "current-context": "fake",
    }),
    { mode: 0o600 },
  );
  return {
    kubeconfig,
    requests,
    putSecret(namespace, name, stringData) {
      const data = Object.fromEntries(Object.entries(stringData).map(([key, value]) => [key, Buffer.from(value).toString("base64")]));
      if (!secrets.has(namespace)) secrets.set(namespace, new Map());
      secrets.get(namespace)!.set(name, { kind: "Secret", apiVersion: "v1", metadata: { name, namespace }, type: "Opaque", data });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
