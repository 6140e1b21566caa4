/**
 * Query parameters read strictly: each named parameter at most once, as one plain string.
 * `?minconf=1&minconf=2` and `?minconf[]=1` are the client's mistake (400), never silently the
 * first value or an ignored unknown name; lookups are own-property only (`constructor` is no value).
 */
import { ChaingateError } from "@chaingate/errors";

/** A named parameter given more than once or in array form (`name[]`, `name[x]`). */
export class QueryParameterError extends ChaingateError {
  override name = "QueryParameterError" as const;
  readonly parameter: string;
  constructor(parameter: string) {
    super("invalid_query_parameter", `The ${parameter} parameter must be given once, as a single value.`, {
      details: { parameter, status: 400 },
    });
    this.parameter = parameter;
  }
}

/**
 * The values of `names` in an express query object (the "simple" parser: a string, or an array
 * when repeated), in an object without prototype. Throws QueryParameterError for a repeated or
 * array-form parameter. Other names are ignored, as before.
 */
export function strictQuery<const Name extends string>(query: unknown, names: readonly Name[]): Partial<Record<Name, string>> {
  const source = (typeof query === "object" && query !== null ? query : {}) as Record<string, unknown>;
  const keys = Object.keys(source);
  const values = Object.create(null) as Partial<Record<Name, string>>;
  for (const name of names) {
    if (keys.some((key) => key.startsWith(`${name}[`))) throw new QueryParameterError(name);
    if (!Object.hasOwn(source, name)) continue;
    const value = source[name];
    if (typeof value !== "string") throw new QueryParameterError(name);
    values[name] = value;
  }
  return values;
}
