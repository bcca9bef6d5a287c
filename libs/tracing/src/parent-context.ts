import { context, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

const propagator = new W3CTraceContextPropagator();
const getter = {
  get: (carrier: Record<string, string>, key: string) => carrier[key],
  keys: (c: Record<string, string>) => Object.keys(c),
};

/** The context of a W3C traceparent (the agent's span an event carried), or the active one without it. */
export function parentContext(traceparent: string | null | undefined): Context {
  if (!traceparent) return context.active();
  return propagator.extract(ROOT_CONTEXT, { traceparent }, getter);
}
