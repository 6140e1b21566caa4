import { describe, expect, it } from "vitest";
import { readCredential } from "./read-credential.ts";

const key = "A".repeat(40);
const other = "B".repeat(40);

describe("readCredential", () => {
  it.each([
    ["no header", {}, { kind: "missing" }],
    ["empty X-API-Key", { "x-api-key": "" }, { kind: "missing" }],
    ["blank X-API-Key", { "x-api-key": "   " }, { kind: "missing" }],
    ["Basic auth", { authorization: "Basic dXNlcjpwdw==" }, { kind: "missing" }],
    ["empty bearer", { authorization: "Bearer " }, { kind: "missing" }],
    ["X-API-Key", { "x-api-key": key }, { kind: "key", key, via: "x-api-key" }],
    ["Bearer", { authorization: `Bearer ${key}` }, { kind: "key", key, via: "bearer" }],
    ["bearer in lower case", { authorization: `bearer ${key}` }, { kind: "key", key, via: "bearer" }],
    ["both: X-API-Key wins", { "x-api-key": other, authorization: `Bearer ${key}` }, { kind: "key", key: other, via: "x-api-key" }],
    ["empty X-API-Key with a bearer", { "x-api-key": "", authorization: `Bearer ${key}` }, { kind: "key", key, via: "bearer" }],
  ])("%s", (_name, headers, expected) => {
    expect(readCredential(headers)).toEqual(expected);
  });
});
