import { describe, expect, it } from "vitest";
import { isForbiddenAddress, parseAllowCidrs } from "./forbidden-address.ts";
import { checkWebhookUrl, URL_NOT_HTTP, URL_NOT_PUBLIC, URL_NOT_RESOLVED } from "./check-webhook-url.ts";

const FORBIDDEN: Array<[string, string]> = [
  ["loopback", "127.0.0.1"],
  ["loopback (other)", "127.45.6.7"],
  ["private 10/8", "10.1.2.3"],
  ["private 172.16/12", "172.31.255.1"],
  ["private 192.168/16", "192.168.0.10"],
  ["link-local (cloud metadata)", "169.254.169.254"],
  ["CGNAT 100.64/10", "100.64.0.1"],
  ["multicast", "224.0.0.1"],
  ["unspecified", "0.0.0.0"],
  ["this network 0/8", "0.1.2.3"],
  ["broadcast", "255.255.255.255"],
  ["reserved 240/4", "240.0.0.1"],
  ["IPv6 loopback", "::1"],
  ["IPv6 unspecified", "::"],
  ["IPv6 link-local", "fe80::1"],
  ["IPv6 unique local", "fd00::1"],
  ["IPv6 multicast", "ff02::1"],
  ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
  ["IPv4-mapped private (hex form)", "::ffff:a00:1"],
  ["IPv4-compatible loopback", "::127.0.0.1"],
  ["NAT64 of a private address", "64:ff9b::10.0.0.1"],
  ["6to4 of loopback", "2002:7f00:1::1"],
  ["bracketed IPv6 loopback", "[::1]"],
  ["NAT64 local-use prefix (RFC 8215): where the IPv4 address sits is the network's choice", "64:ff9b:1::808:808"],
  ["not an address", "localhost"],
];
const PUBLIC = ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "168.63.129.17"];

/**
 * The cloud providers' metadata and platform addresses, in every form that reaches them: some are
 * public-range unicast (Azure's WireServer), so the classification alone lets them through.
 */
const PLATFORM: Array<[string, string]> = [
  ["Azure WireServer", "168.63.129.16"],
  ["Azure WireServer, IPv4-mapped", "::ffff:168.63.129.16"],
  ["Azure WireServer, IPv4-mapped (hex form)", "::ffff:a83f:8110"],
  ["Azure WireServer, IPv4-compatible", "::a83f:8110"],
  ["Azure WireServer, IPv4-translated (RFC 6145)", "::ffff:0:a83f:8110"],
  ["Azure WireServer, NAT64 well-known prefix", "64:ff9b::a83f:8110"],
  ["Azure WireServer, NAT64 well-known prefix (dotted)", "64:ff9b::168.63.129.16"],
  ["Azure WireServer, 6to4", "2002:a83f:8110::1"],
  ["AWS, GCP, Azure, OCI, DigitalOcean metadata", "169.254.169.254"],
  ["metadata, IPv4-mapped", "::ffff:169.254.169.254"],
  ["metadata, NAT64", "64:ff9b::a9fe:a9fe"],
  ["metadata, NAT64 local-use prefix (RFC 8215, embedding unknown)", "64:ff9b:1::a9fe:a9fe"],
  ["metadata, 6to4", "2002:a9fe:a9fe::"],
  ["AWS ECS task metadata", "169.254.170.2"],
  ["AWS EKS Pod Identity agent", "169.254.170.23"],
  ["AWS IMDS over IPv6", "fd00:ec2::254"],
  ["AWS EKS Pod Identity agent over IPv6", "fd00:ec2::23"],
  ["GCP metadata over IPv6", "fd20:ce::254"],
  ["Oracle Cloud metadata", "192.0.0.192"],
  ["Oracle Cloud metadata, IPv4-mapped", "::ffff:192.0.0.192"],
  ["Oracle Cloud metadata, NAT64", "64:ff9b::c000:c0"],
  ["Alibaba Cloud metadata", "100.100.100.200"],
  ["Alibaba Cloud metadata, NAT64", "64:ff9b::6464:64c8"],
  ["Tencent Cloud metadata", "169.254.0.23"],
];

describe("isForbiddenAddress", () => {
  it.each(FORBIDDEN)("refuses %s (%s)", (_, ip) => expect(isForbiddenAddress(ip)).toBe(true));
  it.each(PUBLIC)("lets public %s through", (ip) => expect(isForbiddenAddress(ip)).toBe(false));
  it("lets an operator-listed range through, and only that range", () => {
    const allow = parseAllowCidrs(" 127.0.0.1/32, fd00::/8 ");
    expect(isForbiddenAddress("127.0.0.1", allow)).toBe(false);
    expect(isForbiddenAddress("::ffff:127.0.0.1", allow)).toBe(false);
    expect(isForbiddenAddress("fd00::5", allow)).toBe(false);
    expect(isForbiddenAddress("127.0.0.2", allow)).toBe(true);
    expect(isForbiddenAddress("10.0.0.1", allow)).toBe(true);
  });
  it.each(PLATFORM)("refuses the platform address %s (%s)", (_, ip) => expect(isForbiddenAddress(ip)).toBe(true));
  it.each(PLATFORM)("refuses the platform address %s (%s) even inside a range WEBHOOK_ALLOW_CIDRS lets through", (_, ip) => {
    expect(isForbiddenAddress(ip, parseAllowCidrs("0.0.0.0/0, ::/0"))).toBe(true);
  });
  it("refuses a malformed WEBHOOK_ALLOW_CIDRS entry", () => {
    expect(() => parseAllowCidrs("127.0.0.1")).toThrow();
  });
});

describe("checkWebhookUrl", () => {
  const dns: Record<string, string[]> = {
    "public.test": ["93.184.216.34"],
    "sneaky.test": ["93.184.216.34", "127.0.0.1"],
    "v6.test": ["::1"],
    "wireserver.test": ["93.184.216.34", "168.63.129.16"],
    "metadata.google.internal": ["169.254.169.254"],
    "imds-v6.test": ["2606:4700:4700::1111", "fd00:ec2::254"],
  };
  const resolve = async (host: string) => {
    const found = dns[host];
    if (!found) throw new Error("ENOTFOUND");
    return found;
  };
  it.each([
    ["https://public.test/hook", null],
    ["http://93.184.216.34:8080/x", null],
    ["ftp://public.test/", URL_NOT_HTTP],
    ["https://user:pw@public.test/", URL_NOT_HTTP],
    ["not a url", URL_NOT_HTTP],
    ["https://sneaky.test/", URL_NOT_PUBLIC],
    ["https://v6.test/", URL_NOT_PUBLIC],
    ["http://[::ffff:7f00:1]/", URL_NOT_PUBLIC],
    ["http://2130706433/", URL_NOT_PUBLIC],
    ["http://0x7f.1/", URL_NOT_PUBLIC],
    ["https://nowhere.test/", URL_NOT_RESOLVED],
    ["http://168.63.129.16/machine?comp=goalstate", URL_NOT_PUBLIC],
    ["http://[::ffff:a83f:8110]/", URL_NOT_PUBLIC],
    ["http://[64:ff9b::a83f:8110]/", URL_NOT_PUBLIC],
    ["http://192.0.0.192/opc/v2/instance/", URL_NOT_PUBLIC],
    ["http://wireserver.test/", URL_NOT_PUBLIC],
    ["http://metadata.google.internal/computeMetadata/v1/", URL_NOT_PUBLIC],
    ["http://imds-v6.test/latest/meta-data/", URL_NOT_PUBLIC],
  ])("%s → %s", async (url, expected) => {
    expect(await checkWebhookUrl(url, resolve, [])).toBe(expected);
  });
});
