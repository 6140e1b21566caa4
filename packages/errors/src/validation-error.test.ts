import { describe, expect, it } from "vitest";
import { ValidationError, summarizeFieldErrors } from "./validation-error.ts";

describe("summarizeFieldErrors", () => {
  it("gives the first message alone when there is one", () => {
    expect(summarizeFieldErrors({ coin: ["The coin field is required."] })).toBe("The coin field is required.");
  });
  it("counts the rest as the spec's '(and N more errors)'", () => {
    const errors = { coin: ["The coin field is required."], addresses: ["a", "b"] };
    expect(summarizeFieldErrors(errors)).toBe("The coin field is required. (and 2 more errors)");
    expect(summarizeFieldErrors({ a: ["x"], b: ["y"] })).toBe("x (and 1 more error)");
  });
  it("keeps the map and the summary on the error", () => {
    const error = new ValidationError({ xpub: ["bad"] });
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe("bad");
    expect(error.fieldErrors).toEqual({ xpub: ["bad"] });
  });
});
