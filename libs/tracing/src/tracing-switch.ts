/**
 * Whether the services record their own spans. Off by default: with no tracer provider the OpenTelemetry
 * API is a no-op already, but the switch also skips the work that only feeds spans (parsing traceparents,
 * reading causing events' trace context). On with startServiceTracing, or by a host that registered its
 * own provider (a spec's in-memory exporter).
 */
let enabled = false;

export const governanceTracingEnabled = (): boolean => enabled;

export function enableGovernanceTracing(on = true): void {
  enabled = on;
}
