import { parse } from "node:querystring";
import { describe, expect, it } from "vitest";
import { QueryParameterError, strictQuery } from "./strict-query.ts";

/** What express's "simple" query parser hands a handler. */
const query = (text: string) => parse(text);

describe("strictQuery", () => {
  it("returns each named parameter given once, and nothing for absent ones", () => {
    const values = strictQuery(query("minconf=3&includeEmpty=true&other=x"), ["minconf", "includeEmpty", "includeWatchOnly"]);
    expect({ ...values }).toEqual({ minconf: "3", includeEmpty: "true" });
    expect(Object.getPrototypeOf(values)).toBeNull();
  });

  it.each(["minconf=1&minconf=2", "minconf[]=1", "minconf[0]=1", "minconf[a]=1&minconf=2"])("refuses %s naming the parameter", (text) => {
    const error = (() => {
      try {
        strictQuery(query(text), ["minconf"]);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(QueryParameterError);
    expect(error).toMatchObject({
      parameter: "minconf",
      code: "invalid_query_parameter",
      message: "The minconf parameter must be given once, as a single value.",
    });
  });

  it("reads own members only: inherited names are absent", () => {
    expect({ ...strictQuery({}, ["constructor", "toString"]) }).toEqual({});
    expect(strictQuery(Object.create({ minconf: "9" }) as object, ["minconf"]).minconf).toBeUndefined();
  });
});
