/**
 * The express app every service starts from: request id, access log, JSON bodies with a size
 * limit, `/healthz` and `/readyz`, JSON 404/405 (always JSON, whatever `Accept` says: a deliberate
 * improvement on the spec's HTML pages) and the table-driven error handler.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "@chaingate/logger";
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { match, type MatchFunction } from "path-to-regexp";
import {
  errorResponseFor,
  fromFrameworkError,
  INTERNAL_ERROR,
  methodNotAllowed,
  routeNotFound,
  type ErrorResponse,
  type ErrorResponseTable,
} from "./http-errors.ts";
import { REQUEST_ID_HEADER } from "./internal-headers.ts";
import { assertJsonDepth } from "./json-depth.ts";
import { requireInternalToken } from "./require-internal-token.ts";
import { createServiceMetrics, type ServiceMetrics } from "@chaingate/service-kit";

export const DEFAULT_JSON_BODY_LIMIT = "1mb";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  jsonBodyLimit?: string;
  /** The service's own error codes → responses; consulted before the common ones. */
  errorResponses?: ErrorResponseTable;
  /** Named checks behind `/readyz`; each throws when a dependency the service cannot serve without is down (503). */
  readinessChecks?: Record<string, () => Promise<unknown>>;
  /**
   * Dependencies the service keeps serving without (e.g. NATS behind an outbox): a failure is
   * named under `degraded` in the `/readyz` body but keeps the status 200, so an outage of them
   * does not take every replica out of its load balancer.
   */
  degradedChecks?: Record<string, () => Promise<unknown>>;
  /** Where request metrics go and `/metrics` reads from; one is made for the service when absent. */
  metrics?: ServiceMetrics;
  /** false: no `/metrics` route on this app (the public gateway serves it on a listener of its own). */
  serveMetrics?: boolean;
  /** When set, every request but probes and scrapes must carry it (see require-internal-token.ts). */
  internalToken?: string | undefined;
  /**
   * A JSON body not wholly received this long after `jsonBody` starts reading it is answered 408
   * and its connection closed (a client declaring a body and never sending it holds nothing for
   * long). Unset: Node's request timeout alone.
   */
  bodyReceiveTimeoutMs?: number;
}

export interface HttpApp {
  app: Express;
  /**
   * Registers a route and remembers its method for 405 answers. A parameter may carry a
   * constraint, `/block/:height(-?\\d+)`: a value that fails it is a routing miss (404, never
   * 405 or 422), as the spec's route constraints make it. Constraints hold no parentheses.
   */
  route(method: HttpMethod, path: string, ...handlers: RequestHandler[]): void;
  /** JSON body parser with the app's limit; malformed JSON becomes 400, too large 413. */
  jsonBody: RequestHandler;
  /** Adds the 404/405 fallback and the error handler; call after the last route. */
  finish(): void;
  /** From now on `/readyz` answers 503, so load balancers stop sending new requests. */
  markDraining(): void;
  /** Every registered route in OpenAPI form (`/x/{id}`), for checks against the published document. */
  routes(): { method: HttpMethod; path: string }[];
  /** The service's metrics (served at `/metrics`); services add their own to its registry. */
  metrics: ServiceMetrics;
}

interface RegisteredPath {
  matches: MatchFunction<Partial<Record<string, string | string[]>>>;
  constraints: Record<string, RegExp>;
  methods: Set<string>;
}

const CONSTRAINED_PARAM = /:(\w+)\(([^()]+)\)/g;

/** `/x/:id(\\d+)` → the plain express path `/x/:id` and `{id: /^(?:\d+)$/}`. */
function parseRoutePath(path: string): { plain: string; constraints: Record<string, RegExp> } {
  const constraints: Record<string, RegExp> = {};
  const plain = path.replace(CONSTRAINED_PARAM, (_whole, name: string, pattern: string) => {
    constraints[name] = new RegExp(`^(?:${pattern})$`);
    return `:${name}`;
  });
  return { plain, constraints };
}

function satisfies(params: Partial<Record<string, string | string[]>>, constraints: Record<string, RegExp>): boolean {
  return Object.entries(constraints).every(([name, pattern]) => typeof params[name] === "string" && pattern.test(params[name]));
}

export function createHttpApp(options: HttpAppOptions): HttpApp {
  const { logger, errorResponses = {}, readinessChecks = {}, degradedChecks = {} } = options;
  const metrics = options.metrics ?? createServiceMetrics(options.service);
  const app = express();
  app.disable("x-powered-by");
  // Hashing a megabytes-large block body for an ETag is work nobody asked for.
  app.set("etag", false);
  app.set("query parser", "simple");

  const paths = new Map<string, RegisteredPath>();
  const registeredRoutes: { method: HttpMethod; path: string }[] = [];
  let draining = false;

  app.use(requestIdAndAccessLog(logger, metrics));
  if (options.internalToken) app.use(requireInternalToken(options.internalToken));

  if (options.serveMetrics !== false) {
    app.get("/metrics", async (_req, res) => {
      const { contentType, body } = await metrics.render();
      res.type(contentType).send(body);
    });
  }

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const [failures, degraded] = await Promise.all([runChecks(readinessChecks), runChecks(degradedChecks)]);
    if (draining) failures.shutdown = "draining";
    const ready = Object.keys(failures).length === 0;
    const body: Record<string, unknown> = ready ? { status: "ready" } : { status: "not ready", failures };
    if (Object.keys(degraded).length > 0) body.degraded = degraded;
    res.status(ready ? 200 : 503).json(body);
  });

  const parseJson = express.json({
    limit: options.jsonBodyLimit ?? DEFAULT_JSON_BODY_LIMIT,
    type: () => true,
    verify: (_req, _res, body) => assertJsonDepth(body),
  });
  const jsonBody = options.bodyReceiveTimeoutMs === undefined ? parseJson : withReceiveDeadline(parseJson, options.bodyReceiveTimeoutMs);

  return {
    app,
    jsonBody,
    route(method, path, ...handlers) {
      const { plain, constraints } = parseRoutePath(path);
      registeredRoutes.push({ method, path: plain.replace(/:(\w+)/g, "{$1}") });
      let registered = paths.get(path);
      if (!registered) {
        registered = { matches: match(plain, { decode: decodeURIComponent }), constraints, methods: new Set() };
        paths.set(path, registered);
      }
      registered.methods.add(method.toUpperCase());
      if (method === "get") registered.methods.add("HEAD");
      const guard: RequestHandler = (req, _res, next) => (satisfies(req.params, constraints) ? next() : next("route"));
      app[method](plain, ...(Object.keys(constraints).length ? [guard] : []), ...handlers);
    },
    finish() {
      app.use((req: Request, res: Response, next: NextFunction) => {
        const allowed = new Set<string>();
        try {
          for (const registered of paths.values()) {
            const matched = registered.matches(req.path);
            if (matched && satisfies(matched.params, registered.constraints)) registered.methods.forEach((m) => allowed.add(m));
          }
        } catch (error) {
          next(error); // a URIError: malformed percent-encoding, the client's mistake (400)
          return;
        }
        const answer =
          allowed.size > 0 && !allowed.has(req.method) ? methodNotAllowed(req.method, req.path, [...allowed]) : routeNotFound(req.path);
        send(res, answer);
      });
      app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
        const known = errorResponseFor(fromFrameworkError(error) ?? error, errorResponses);
        if (!known) logger.error({ err: error, method: req.method, path: req.path }, "unhandled error");
        // A documented 5xx (a dependency down) is the operator's business: say why.
        else if (known.status >= 500)
          logger.warn({ err: error, method: req.method, path: req.path, status: known.status }, "dependency failure answered");
        if (res.headersSent) {
          res.destroy();
          return;
        }
        send(res, known ?? INTERNAL_ERROR);
      });
    },
    markDraining() {
      draining = true;
    },
    routes: () => [...registeredRoutes],
    metrics,
  };
}

/** Longest a readiness check may take: a hung dependency must not hang the probe. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

/** Runs named checks concurrently, each under a deadline; the failing ones with their messages. */
async function runChecks(checks: Record<string, () => Promise<unknown>>): Promise<Record<string, string>> {
  const failures: Record<string, string> = {};
  await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`)), READINESS_CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([check(), deadline]);
      } catch (error) {
        failures[name] = error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return failures;
}

export function send(res: Response, { status, body, headers }: ErrorResponse): void {
  if (headers) res.set(headers);
  res.status(status).json(body);
}

/** A client's request id is logged and forwarded only when it is short and plain; otherwise a new one is made. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function acceptedRequestId(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && REQUEST_ID_PATTERN.test(value) ? value : undefined;
}

/** Probes and scrapes: neither logged nor counted. */
const UNOBSERVED_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

function requestIdAndAccessLog(logger: Logger, metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = acceptedRequestId(req.get(REQUEST_ID_HEADER)) ?? randomUUID();
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.on("finish", () => {
      if (UNOBSERVED_PATHS.has(req.path)) return;
      // The route's pattern, never the raw path: ids and hashes would make a series each.
      const routePath = req.route?.path as string | undefined;
      const labels = {
        method: req.method,
        route: routePath ? `${req.baseUrl}${routePath}`.replace(/:(\w+)/g, "{$1}") : "unmatched",
        status: String(res.statusCode),
      };
      const durationNs = Number(process.hrtime.bigint() - started);
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, durationNs / 1e9);
      logger.info(
        {
          request_id: requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          duration_ms: durationNs / 1e6,
        },
        "request",
      );
    });
    next();
  };
}

/** The body parser, answering 408 {message} and closing the connection when the body is not whole within `timeoutMs`. */
function withReceiveDeadline(parse: RequestHandler, timeoutMs: number): RequestHandler {
  const message = `The request body was not received within ${timeoutMs} ms.`;
  return (req, res, next) => {
    let settled = false;
    const deadline = setTimeout(() => {
      settled = true;
      // The parser still waits on the body: closing the connection after the answer ends it.
      res.setHeader("connection", "close");
      res.on("finish", () => req.socket.end());
      res.status(408).json({ message });
    }, timeoutMs);
    parse(req, res, (error?: unknown) => {
      clearTimeout(deadline);
      if (!settled) next(error);
    });
  };
}
