/**
 * vitest setup file: a test file whose checked servers (test gateways, services at their internal
 * edge) served an answer that contradicts the OpenAPI document fails, with the answers listed
 * (the check runs in check-answers.ts). Registered
 * first, this hook runs after the file's own afterAll hooks, once every answer has been served.
 */
import { appendFileSync } from "node:fs";
import { afterAll, expect } from "vitest";
import { answerProblems, answersSeen } from "./answer-problems.ts";

afterAll(() => {
  const coverageFile = process.env.OPENAPI_COVERAGE_FILE;
  if (coverageFile)
    appendFileSync(
      coverageFile,
      answersSeen()
        .map((answer) => `${answer}\n`)
        .join(""),
    );
  expect(answerProblems(), "answers that contradict the OpenAPI document (packages/contracts/src/api)").toEqual([]);
});
