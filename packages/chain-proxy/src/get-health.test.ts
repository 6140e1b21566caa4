/** The health route every proxy mounts, with a chain's probe, over HTTP. */
import type { Server } from "node:http";
import { createNodeClient, ethereum, NodeUnreachableError, type NodeClient } from "@chaingate/node-client";
import express, { type ErrorRequestHandler } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { getHealth, type HealthProbe } from "./get-health.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const node: NodeClient = createNodeClient({ chain: ethereum, urls: [] });

async function health(probe: HealthProbe<string>) {
  const faults: unknown[] = [];
  const app = express();
  app.get("/health", getHealth({ node }, probe));
  app.use(((error, _req, res, _next) => {
    faults.push(error);
    res.status(500).json({ message: "Internal server error" });
  }) satisfies ErrorRequestHandler);
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, faults };
}

describe("getHealth", () => {
  it("answers ok with the time and what the probe read, in that order", async () => {
    const before = Date.now();
    const { status, body } = await health({
      read: async () => "0x10",
      describe: (blockNumber, now) => ({ blockNumber, seen: now.toISOString() }),
    });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["status", "time", "blockNumber", "seen"]);
    expect(body).toMatchObject({ status: "ok", blockNumber: "0x10" });
    expect(body.seen).toBe(body.time);
    expect(Date.parse(body.time as string)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("answers a node failure 500 in the health shape with the generic node message", async () => {
    const { status, body, faults } = await health({
      read: () => Promise.reject(new NodeUnreachableError(ethereum, [])),
      describe: () => ({}),
    });
    expect(status).toBe(500);
    expect(body).toEqual({ status: "error", message: "Could not connect to ETH node." });
    expect(faults).toEqual([]);
  });

  it("hands a fault of its own to the error handler", async () => {
    const { status, faults } = await health({ read: () => Promise.reject(new TypeError("a bug")), describe: () => ({}) });
    expect(status).toBe(500);
    expect(faults).toEqual([new TypeError("a bug")]);
  });
});
