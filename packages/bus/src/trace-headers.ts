/**
 * W3C trace context (`traceparent`, `tracestate`) in NATS message headers, so one trace runs from
 * the publisher to the consumer. The W3C propagator is used directly: headers are carried even
 * where no SDK registered a global propagator.
 */
import { context, type Context, type TextMapGetter, type TextMapSetter } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { MsgHdrs } from "nats";

const propagator = new W3CTraceContextPropagator();

const setter: TextMapSetter<MsgHdrs> = { set: (headers, key, value) => headers.set(key, value) };
const getter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (headers) => (headers ? [...headers.keys()] : []),
  get: (headers, key) => (headers?.has(key) ? headers.get(key) : undefined),
};

export function injectTraceContext(headers: MsgHdrs, from: Context = context.active()): void {
  propagator.inject(from, headers, setter);
}

export function extractTraceContext(headers: MsgHdrs | undefined, into: Context = context.active()): Context {
  return propagator.extract(into, headers, getter);
}
