import { createContextKey, ROOT_CONTEXT } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { SynchronousContextManager } from "./synchronous-context-manager.ts";

const KEY = createContextKey("test");

describe("SynchronousContextManager", () => {
  it("makes a context active for the synchronous extent of with(), nested, and restores the previous one", () => {
    const manager = new SynchronousContextManager();
    const outer = ROOT_CONTEXT.setValue(KEY, "outer");
    const inner = ROOT_CONTEXT.setValue(KEY, "inner");
    const seen = manager.with(outer, () => [
      manager.active().getValue(KEY),
      manager.with(inner, () => manager.active().getValue(KEY)),
      manager.active().getValue(KEY),
    ]);
    expect(seen).toEqual(["outer", "inner", "outer"]);
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it("restores the previous context when the callback throws, and passes this and arguments", () => {
    const manager = new SynchronousContextManager();
    expect(() =>
      manager.with(ROOT_CONTEXT.setValue(KEY, "x"), () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(manager.active()).toBe(ROOT_CONTEXT);
    const target = { factor: 3 };
    expect(
      manager.with(
        ROOT_CONTEXT,
        function (this: typeof target, n: number) {
          return this.factor * n;
        },
        target,
        7,
      ),
    ).toBe(21);
  });
});
