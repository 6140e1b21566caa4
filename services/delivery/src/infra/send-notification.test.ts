/**
 * The sender's connect-time address check, and what its error text may say: the attempt log is
 * shown to the subscriber, who controls the webhook's DNS name, so it never carries the address a
 * name resolved to (nor any other address), whether the connection was refused or failed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllowCidrs } from "../domain/forbidden-address.ts";
import { createSender, describeFailure, DESTINATION_NOT_ALLOWED } from "./send-notification.ts";

/** Dotted IPv4, or an IPv6 address of at least three colon-separated groups. */
const ANY_ADDRESS = /\b\d{1,3}(\.\d{1,3}){3}\b|[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}/i;

let server: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  server = createServer((_, res) => void res.end("ok"));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const refusedUrls = (): Array<[string, string, string]> => [
  ["loopback", `http://127.0.0.1:${port}/`, ""],
  ["a name resolving to loopback", `http://localhost:${port}/`, ""],
  ["Azure's WireServer (public range)", "http://168.63.129.16:9/", ""],
  ["Azure's WireServer inside an allowed range", "http://168.63.129.16:9/", "0.0.0.0/0"],
  ["Azure's WireServer, IPv4-mapped", "http://[::ffff:a83f:8110]:9/", ""],
  ["Azure's WireServer, NAT64", "http://[64:ff9b::a83f:8110]:9/", ""],
  ["the metadata address, IPv4-compatible", "http://[::a9fe:a9fe]:9/", ""],
  ["the metadata address inside an allowed range", "http://169.254.169.254:9/", "169.254.0.0/16"],
  ["AWS IMDS over IPv6", "http://[fd00:ec2::254]:9/", ""],
];

describe("connect-time address check", () => {
  it.each([0, 1, 2, 3, 4, 5, 6, 7, 8])("refuses case %i without connecting, and says so without the address", async (index) => {
    const [what, url, allowCidrs] = refusedUrls()[index]!;
    const before = connections;
    const send = createSender({ timeoutMs: 2_000, allowCidrs: parseAllowCidrs(allowCidrs) });
    const result = await send(url, "{}", {});
    expect({ what, ...result, latencyMs: 0 }).toEqual({
      what,
      statusCode: null,
      latencyMs: 0,
      error: DESTINATION_NOT_ALLOWED,
      refused: true,
      refusedAddress: expect.any(String),
      responseExcerpt: null,
      retryAfter: undefined,
    });
    expect(connections).toBe(before);
  });

  it("lets an allowed address through", async () => {
    const send = createSender({ timeoutMs: 2_000, allowCidrs: parseAllowCidrs("127.0.0.1/32") });
    expect(await send(`http://127.0.0.1:${port}/`, "{}", {})).toMatchObject({ statusCode: 200, error: null, refused: false });
  });
});

describe("error text of a failed connection", () => {
  it("names what failed, not the address", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const send = createSender({ timeoutMs: 2_000, allowCidrs: parseAllowCidrs("127.0.0.1/32") });
    const result = await send(`http://127.0.0.1:${closedPort}/`, "{}", {});
    expect(result).toMatchObject({ statusCode: null, refused: false });
    expect(result.error).toMatch(/ECONNREFUSED/);
    expect(result.error).not.toMatch(ANY_ADDRESS);
    expect(result.error).not.toContain(String(closedPort));
  });
});

describe("describeFailure", () => {
  const systemError = (message: string, fields: object) => Object.assign(new Error(message), fields);
  it.each([
    [
      "a system error, by its call and code",
      systemError("connect ECONNREFUSED 10.0.3.7:443", { code: "ECONNREFUSED", syscall: "connect" }),
      "connect ECONNREFUSED",
    ],
    ["a reset", systemError("read ECONNRESET", { code: "ECONNRESET", syscall: "read" }), "read ECONNRESET"],
    ["node's happy-eyeballs AggregateError (no message)", Object.assign(new AggregateError([], ""), { code: "ETIMEDOUT" }), "ETIMEDOUT"],
    [
      "an address and port in a message",
      new Error("Hostname/IP does not match certificate's altnames: IP: 10.0.3.7 is not in the cert's list: "),
      "Hostname/IP does not match certificate's altnames: IP: [address] is not in the cert's list: ",
    ],
    ["IPv4 with a port", new Error("no route to 10.0.3.7:8443."), "no route to [address]."],
    ["IPv6", new Error("unreachable fd00:ec2::254 now"), "unreachable [address] now"],
    ["no address: kept", new Error("no complete answer within 15000 ms at 10:00:00"), "no complete answer within 15000 ms at 10:00:00"],
  ])("%s", (_, error, text) => {
    expect(describeFailure(error)).toBe(text);
  });
});
