import { expect, it } from "vitest";
import { createAnswerValidator } from "./answer-validator.ts";

const validator = createAnswerValidator();
const json = (value: unknown) => JSON.stringify(value);

it("matches the operation, preferring a fixed segment over a parameter", () => {
  expect(
    validator.check({
      method: "GET",
      url: "/api/v1/btc/block/best",
      status: 200,
      contentType: "application/json",
      body: json({ hash: "ab", height: 1 }),
    }),
  ).toEqual({ operation: "GET /api/v1/btc/block/best", problems: [] });
  expect(
    validator.check({
      method: "GET",
      url: "/api/v1/btc/block/12?x=1",
      status: 400,
      contentType: "application/json; charset=utf-8",
      body: json({ error: "bad" }),
    }).operation,
  ).toBe("GET /api/v1/btc/block/{blockNumber}");
});

it("names an undocumented status, a body its schema refuses, a wrong content type and an unknown route", () => {
  const problems = (answer: Parameters<typeof validator.check>[0]) => validator.check(answer).problems;
  expect(problems({ method: "GET", url: "/api/v1/btc/block/best", status: 418, contentType: "application/json", body: "{}" })[0]).toContain(
    "status 418 is not documented",
  );
  expect(
    problems({ method: "GET", url: "/api/v1/btc/block/best", status: 200, contentType: "application/json", body: json({ hash: 1 }) })[0],
  ).toMatch(/\/hash must be string/);
  expect(problems({ method: "GET", url: "/api/v1/btc/block/best", status: 200, contentType: "text/html", body: "<p>" })[0]).toContain(
    "content type text/html",
  );
  expect(problems({ method: "PATCH", url: "/api/v1/nowhere", status: 200, contentType: "application/json", body: "{}" })[0]).toContain(
    "no documented operation",
  );
  expect(problems({ method: "DELETE", url: "/api/v1/webhooks/1", status: 204, contentType: undefined, body: "" })).toEqual([]);
});
