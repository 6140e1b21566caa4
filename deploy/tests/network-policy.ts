/**
 * Who may talk to whom under a set of NetworkPolicies (the subset of the semantics the chart uses:
 * podSelector / namespaceSelector with matchLabels, ipBlock with except, named and numbered ports).
 * A pod no policy selects for a direction is open in that direction, as in Kubernetes.
 */

export interface LabelSelector {
  matchLabels?: Record<string, string>;
}
export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
export interface NetworkPolicyPort {
  port?: number | string;
  protocol?: string;
}
export interface NetworkPolicyRule {
  from?: NetworkPolicyPeer[];
  to?: NetworkPolicyPeer[];
  ports?: NetworkPolicyPort[];
}
export interface NetworkPolicySpec {
  podSelector: LabelSelector;
  policyTypes?: string[];
  ingress?: NetworkPolicyRule[] | null;
  egress?: NetworkPolicyRule[] | null;
}

/** An endpoint: a pod (labels, namespace) or an address outside the cluster. */
export interface Endpoint {
  podLabels?: Record<string, string>;
  namespace?: string;
  namespaceLabels?: Record<string, string>;
  ip?: string;
  /** Named container ports of the pod, to resolve named ports in rules. */
  namedPorts?: Record<string, number>;
}

export function selects(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels?.[key] === value);
}

function ipToNumber(ip: string): number {
  return ip.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

export function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/");
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipToNumber(base ?? "") / size) * size;
  const n = ipToNumber(ip);
  return n >= start && n < start + size;
}

function peerMatches(peer: NetworkPolicyPeer, endpoint: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock) {
    if (!endpoint.ip) return false;
    return inCidr(endpoint.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c) => inCidr(endpoint.ip!, c));
  }
  if (!endpoint.podLabels) return false;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, endpoint.namespaceLabels)
    : endpoint.namespace === policyNamespace;
  return namespaceOk && (peer.podSelector ? selects(peer.podSelector, endpoint.podLabels) : true);
}

function portMatches(ports: NetworkPolicyPort[] | undefined, port: number, target: Endpoint): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => p.port === undefined || p.port === port || (typeof p.port === "string" && target.namedPorts?.[p.port] === port));
}

function ruleAllows(
  rule: NetworkPolicyRule,
  peers: NetworkPolicyPeer[] | undefined,
  other: Endpoint,
  port: number,
  portOwner: Endpoint,
  namespace: string,
): boolean {
  const peerOk = !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, other, namespace));
  return peerOk && portMatches(rule.ports, port, portOwner);
}

/** Whether `source` may open a TCP connection to `target` on `port` (both directions checked). */
export function allowed(
  policies: Array<{ namespace: string; spec: NetworkPolicySpec }>,
  source: Endpoint,
  target: Endpoint,
  port: number,
): boolean {
  const ingressPolicies = policies.filter(
    (p) =>
      target.podLabels &&
      p.namespace === target.namespace &&
      (p.spec.policyTypes ?? ["Ingress"]).includes("Ingress") &&
      selects(p.spec.podSelector, target.podLabels),
  );
  const ingressOk =
    ingressPolicies.length === 0 ||
    ingressPolicies.some((p) => (p.spec.ingress ?? []).some((rule) => ruleAllows(rule, rule.from, source, port, target, p.namespace)));
  const egressPolicies = policies.filter(
    (p) =>
      source.podLabels &&
      p.namespace === source.namespace &&
      (p.spec.policyTypes ?? []).includes("Egress") &&
      selects(p.spec.podSelector, source.podLabels),
  );
  const egressOk =
    egressPolicies.length === 0 ||
    egressPolicies.some((p) => (p.spec.egress ?? []).some((rule) => ruleAllows(rule, rule.to, target, port, target, p.namespace)));
  return ingressOk && egressOk;
}
