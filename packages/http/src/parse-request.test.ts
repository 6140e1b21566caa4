import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseRequest } from "./parse-request.ts";

const schema = z.object({ xpub: z.string({ error: "The xpub field must be a string." }), label: z.string().max(3).optional() });

describe("parseRequest", () => {
  it("says a missing field is required, and a present field of the wrong type what is wrong", () => {
    const errorsOf = (input: unknown) => {
      try {
        parseRequest(schema, input);
      } catch (error) {
        return (error as { fieldErrors: Record<string, string[]> }).fieldErrors;
      }
      throw new Error("expected a validation error");
    };
    expect(errorsOf({})).toEqual({ xpub: ["The xpub field is required."] });
    expect(errorsOf({ xpub: 42 })).toEqual({ xpub: ["The xpub field must be a string."] });
    expect(errorsOf({ xpub: null })).toEqual({ xpub: ["The xpub field must be a string."] });
    expect(errorsOf({ xpub: "z", label: "long" }).label).toHaveLength(1);
  });

  it("returns the parsed value when valid", () => {
    expect(parseRequest(schema, { xpub: "z" })).toEqual({ xpub: "z" });
  });
});
