/** The console's data shaping, outside the browser: pasted address lists and the usage table. */
import { describe, expect, it } from "vitest";
import { parseAddressList } from "../web/format.ts";
import { tabulate } from "../web/usage-table.ts";

describe("parseAddressList", () => {
  it.each([
    ["one per line", "a1\nb2\r\nc3\n", ["a1", "b2", "c3"]],
    ["commas, semicolons and spaces", "a1, b2;c3  d4\t e5", ["a1", "b2", "c3", "d4", "e5"]],
    ["blank lines and duplicates", "\n\na1\n\na1\n b2 \n", ["a1", "b2"]],
    ["nothing", "  \n ", []],
  ])("%s", (_name, pasted, expected) => {
    expect(parseAddressList(pasted)).toEqual(expected);
  });
});

describe("tabulate", () => {
  it("lists every day of the window, groups sorted, counts by day and group", () => {
    const table = tabulate({
      data: [
        { day: "2026-02-27", endpoint_group: "webhooks", request_count: 2 },
        { day: "2026-03-01", endpoint_group: "btc", request_count: 5 },
        { day: "2026-03-01", endpoint_group: "account", request_count: 1 },
      ],
      meta: { from: "2026-02-26", to: "2026-03-01" },
    });
    expect(table.days).toEqual(["2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01"]);
    expect(table.groups).toEqual(["account", "btc", "webhooks"]);
    expect(table.counts).toEqual({ "2026-02-27": { webhooks: 2 }, "2026-03-01": { btc: 5, account: 1 } });
  });

  it("a one-day window with no requests", () => {
    expect(tabulate({ data: [], meta: { from: "2026-01-01", to: "2026-01-01" } })).toEqual({
      days: ["2026-01-01"],
      groups: [],
      counts: {},
    });
  });
});
