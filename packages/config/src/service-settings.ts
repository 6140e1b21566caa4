/**
 * The settings every service shares, written once: services spread the groups they need into
 * their own schema (`z.object({ ...serviceSettings(8102), ...databaseSettings(), ... })`).
 */
import { z } from "zod";
import { flag, logLevel, port, positiveInt } from "./env-types.ts";

/** Mirrors @chaingate/http's MIN_INTERNAL_TOKEN_LENGTH (config cannot depend on http). */
const MIN_INTERNAL_TOKEN_LENGTH = 32;

export const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";
export const DEFAULT_NATS_URL = "nats://127.0.0.1:4222";

/** Listening, logging and graceful shutdown. Internal services listen on loopback by default. */
export function serviceSettings(defaultPort: number) {
  return {
    HOST: z.string().default("127.0.0.1").describe("Listen address (internal services: loopback in dev, their pod address on Kubernetes)."),
    PORT: port(defaultPort).describe("Listen port."),
    LOG_LEVEL: logLevel().describe("pino log level."),
    DRAIN_TIMEOUT_MS: positiveInt(10_000).describe("Graceful shutdown: how long in-flight requests may finish."),
    INTERNAL_TOKEN: z
      .string()
      .min(MIN_INTERNAL_TOKEN_LENGTH, `must be at least ${MIN_INTERNAL_TOKEN_LENGTH} characters`)
      .optional()
      .describe(
        "A shared secret, the same on every service (one Kubernetes Secret): the gateway sends it on every forwarded request and internal services then refuse any request without it (401; probes and /metrics excepted), compared in constant time. Unset: the service refuses to start unless ALLOW_NO_INTERNAL_TOKEN is true.",
      ),
    ALLOW_NO_INTERNAL_TOKEN: flag(false).describe(
      "true: start without INTERNAL_TOKEN, checking nothing on internal routes (the dev stack and tests only). Otherwise a missing token stops the service at start-up instead of silently leaving its internal routes open.",
    ),
    METRICS_HOST: z.string().default("127.0.0.1").describe("Address of the separate `/metrics` listener (see METRICS_PORT)."),
    METRICS_PORT: z.coerce
      .number()
      .int()
      .min(0)
      .max(65_535)
      .optional()
      .describe("`/metrics` also on a listener of its own (the gateway: only there, never on its public port). Unset: no such listener."),
  };
}

/** Postgres: a request never waits longer than the timeouts for it while it is down or stalled. */
export function databaseSettings(defaults: { connectTimeoutMs?: number; queryTimeoutMs?: number } = {}) {
  return {
    DATABASE_URL: z.url().default(DEFAULT_DATABASE_URL).describe("Postgres; each service uses its own schema."),
    DATABASE_POOL_SIZE: positiveInt(10).describe("pg pool size."),
    DATABASE_CONNECT_TIMEOUT_MS: positiveInt(defaults.connectTimeoutMs ?? 10_000).describe(
      "Longest wait for a Postgres connection; past it the request gets 503.",
    ),
    DATABASE_QUERY_TIMEOUT_MS: positiveInt(defaults.queryTimeoutMs ?? 10_000).describe(
      "Longest wait for a Postgres query; past it the request gets 503.",
    ),
  };
}

/** JetStream keeps at most this many copies of a stream (the NATS server's own limit). */
const MAX_STREAM_REPLICAS = 5;

/** NATS with JetStream; the namespace prefixes subjects and streams (tests, tenants sharing a server). */
export function natsSettings() {
  return {
    NATS_URL: z
      .string()
      .default(DEFAULT_NATS_URL)
      .refine(
        (value) => value.split(",").every((item) => z.url().safeParse(item.trim()).success),
        "must be a URL or a comma-separated list of URLs",
      )
      .describe("One server URL, or a comma-separated list of a JetStream cluster's servers (the client fails over between them)."),
    NATS_NAMESPACE: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional()
      .describe("Prefixes subjects and streams (tests, tenants sharing a server)."),
    NATS_STREAM_REPLICAS: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_STREAM_REPLICAS)
      .default(1)
      .describe(
        "Copies of each stream the service creates or updates at start-up (1 on a single server; 3 in a three-server JetStream cluster, so a server lost loses no event). Give every service the same value.",
      ),
  };
}
