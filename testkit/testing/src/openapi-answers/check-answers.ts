/**
 * Runs every answer a checked test server serves for a documented operation through the OpenAPI
 * answer validator: a test gateway, or a service tested at its internal edge (whose paths are the
 * public ones: the gateway forwards them unchanged). The integration tests prove the document
 * true as they go.
 * Problems are collected per test file; the setup file `openapi-answers-setup.ts` (vitest
 * setupFiles) fails the file after its last hook when there are any.
 * The body is captured as it is written (up to MAX_CHECKED_BODY_BYTES; larger ones, megabyte
 * blocks, are not checked), so nothing the client receives changes.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createAnswerValidator, type AnswerValidator } from "@chaingate/contracts/answer-validator";
import { recordAnswerProblems, recordAnswerSeen } from "./answer-problems.ts";

const MAX_CHECKED_BODY_BYTES = 4 * 1024 * 1024;

let shared: AnswerValidator | undefined;

export function checkAnswers(server: Server): void {
  const validator = (shared ??= createAnswerValidator());
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const capture = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
      size += buffer.length;
      if (size <= MAX_CHECKED_BODY_BYTES) chunks.push(buffer);
    };
    // A header list given to writeHead alone (the gateway's proxied answers) never reaches getHeader().
    let writtenContentType: string | undefined;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      writtenContentType = contentTypeIn(typeof args[1] === "string" ? args[2] : args[1]);
      return writeHead(...args);
    }) as ServerResponse["writeHead"];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      capture(args[0], args[1]);
      return write(...args);
    }) as ServerResponse["write"];
    res.end = ((...args: unknown[]) => {
      capture(args[0], args[1]);
      return end(...args);
    }) as ServerResponse["end"];
    res.once("finish", () => {
      if (size > MAX_CHECKED_BODY_BYTES || req.method === "HEAD") return;
      const contentType = res.getHeader("content-type") ?? writtenContentType;
      const { operation, problems: found } = validator.check({
        method: req.method ?? "GET",
        url: req.url ?? "/",
        status: res.statusCode,
        contentType: typeof contentType === "string" ? contentType : undefined,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      // Paths the document does not describe (probes, /metrics, the document itself, routing misses) are not its business.
      if (!operation) return;
      recordAnswerSeen(`${operation} ${res.statusCode}`);
      recordAnswerProblems(found);
    });
  });
}

/** The content type in writeHead's headers: an object, or a flat name/value list. */
function contentTypeIn(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === "content-type") return String(headers[i + 1]);
    return undefined;
  }
  if (headers && typeof headers === "object")
    for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === "content-type") return String(value);
  return undefined;
}
