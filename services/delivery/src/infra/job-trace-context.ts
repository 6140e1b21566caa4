/**
 * A delivery job's trace context as one W3C `traceparent` string (stored with the job) and back.
 * The W3C propagator is used directly: a job stores its context even where no SDK registered a
 * global propagator (tests), as the bus does for NATS headers.
 */
import { ROOT_CONTEXT, trace, type Context } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";

const propagator = new W3CTraceContextPropagator();
type Carrier = { traceparent?: string };
const setter = { set: (carrier: Carrier, key: string, value: string) => void (key === "traceparent" && (carrier.traceparent = value)) };
const getter = {
  keys: () => ["traceparent"],
  get: (carrier: Carrier, key: string) => (key === "traceparent" ? carrier.traceparent : undefined),
};

/** The `traceparent` of the context's span, or null when it has none. */
export function traceparentOf(from: Context): string | null {
  if (!trace.getSpanContext(from)) return null;
  const carrier: Carrier = {};
  propagator.inject(from, carrier, setter);
  return carrier.traceparent ?? null;
}

/** The context a job's attempt continues: the stored span as a remote parent, or none. */
export function contextOfTraceparent(traceparent: string | null): Context {
  return traceparent ? propagator.extract(ROOT_CONTEXT, { traceparent }, getter) : ROOT_CONTEXT;
}
