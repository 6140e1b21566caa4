import { describe, expect, it } from "vitest";
import { assertJsonDepth, JsonTooDeepError } from "./json-depth.ts";

const bytes = (text: string) => Buffer.from(text);

describe("assertJsonDepth", () => {
  it.each([
    ["a flat object", '{"a":1,"b":[1,2,3]}', 2],
    ["exactly the limit", "[".repeat(5) + "]".repeat(5), 5],
    ["brackets inside strings do not count", '{"a":"[[[[[[[[[[{{{{{"}', 1],
    ["escaped quotes keep the string open", '{"a":"\\"[[[[[[[[\\""}', 1],
  ])("accepts %s", (_name, text, limit) => {
    expect(() => assertJsonDepth(bytes(text), limit)).not.toThrow();
  });

  it.each([
    ["one level over", "[".repeat(6) + "]".repeat(6), 5],
    ["deep objects", '{"a":'.repeat(100) + "1" + "}".repeat(100), 64],
    ["200,000 nested arrays", "[".repeat(200_000) + "]".repeat(200_000), 64],
  ])("refuses %s with a 400", (_name, text, limit) => {
    let thrown: unknown;
    try {
      assertJsonDepth(bytes(text), limit);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JsonTooDeepError);
    expect((thrown as JsonTooDeepError).status).toBe(400);
    expect((thrown as JsonTooDeepError).message).toBe(`The request body nests JSON more than ${limit} levels deep.`);
  });
});
