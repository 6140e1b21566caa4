/**
 * Request bodies read with exact numbers: an amount written as a JSON number (`0.1`, or an int64
 * beyond 2^53 in a signed transaction) keeps its text instead of becoming a double.
 */
import { parseLosslessJson, JsonNumber } from "@chaingate/node-client";
import { ValidationError } from "@chaingate/errors";
import express, { type RequestHandler } from "express";
import { assertJsonDepth, DEFAULT_JSON_BODY_LIMIT } from "@chaingate/http";

// The depth bound runs before anything walks the body (a 50,000-deep object overflowed the walk).
const readRaw = express.raw({ type: () => true, limit: DEFAULT_JSON_BODY_LIMIT, verify: (_req, _res, body) => assertJsonDepth(body) });

/** `req.body` becomes the lossless parse of the JSON body ({} when empty); not JSON → 422 naming `body`. */
export const losslessJsonBody: RequestHandler = (req, res, next) => {
  readRaw(req, res, (error?: unknown) => {
    if (error) {
      next(error);
      return;
    }
    const raw = Buffer.isBuffer(req.body) ? req.body.toString("utf8") : "";
    if (raw.trim() === "") {
      req.body = {};
      next();
      return;
    }
    try {
      req.body = parseLosslessJson(raw);
    } catch {
      next(new ValidationError({ body: ["The request body must be valid JSON."] }));
      return;
    }
    next();
  });
};

/** Top-level JsonNumbers as their exact text: `amount: 0.1` and `amount: "0.1"` read alike. */
export function numbersAsText(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, value instanceof JsonNumber ? value.text : value]));
}

/** Every JsonNumber as a JS number; a number that a double cannot hold exactly makes it fail. */
export function toPlainJson(value: unknown): { ok: true; value: unknown } | { ok: false; number: string } {
  if (value instanceof JsonNumber) {
    const number = Number(value.text);
    if (/[.eE]/.test(value.text) ? !Number.isFinite(number) : !Number.isSafeInteger(number)) return { ok: false, number: value.text };
    return { ok: true, value: number };
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const converted = toPlainJson(item);
      if (!converted.ok) return converted;
      items.push(converted.value);
    }
    return { ok: true, value: items };
  }
  if (typeof value === "object" && value !== null) {
    const members: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      const converted = toPlainJson(member);
      if (!converted.ok) return converted;
      members[key] = converted.value;
    }
    return { ok: true, value: members };
  }
  return { ok: true, value };
}
