import { PassThrough } from "node:stream";
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createBufferGarbageBound } from "./bound-buffer-garbage.ts";

const globals = globalThis as { gc?: unknown };
const originalGc = globals.gc;
afterEach(() => {
  globals.gc = originalGc;
});

function fakeResponse(): ServerResponse {
  return new PassThrough() as unknown as ServerResponse;
}

describe("createBufferGarbageBound", () => {
  it("asks for a minor GC each time the threshold of written bytes is crossed, for large or unsized bodies", () => {
    const calls: unknown[] = [];
    globals.gc = (options: unknown) => calls.push(options);
    const bound = createBufferGarbageBound(100);
    expect(bound.enabled).toBe(true);
    const res = fakeResponse();
    bound.watch(res, undefined);
    for (let i = 0; i < 25; i++) res.write(Buffer.alloc(10));
    expect(calls).toEqual([
      { type: "minor", execution: "async" },
      { type: "minor", execution: "async" },
    ]);
  });

  it("leaves small announced bodies alone, and does nothing without --expose-gc or with a 0 threshold", () => {
    const calls: unknown[] = [];
    globals.gc = () => calls.push(1);
    const res = fakeResponse();
    const write = res.write;
    createBufferGarbageBound(100).watch(res, "512");
    expect(res.write).toBe(write);
    expect(createBufferGarbageBound(0).enabled).toBe(false);
    globals.gc = undefined;
    expect(createBufferGarbageBound(100).enabled).toBe(false);
  });
});
