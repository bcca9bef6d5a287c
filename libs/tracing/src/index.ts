/** The services' own OpenTelemetry traces: SDK start-up from OTEL_* variables, and the governance spans. */
export { startServiceTracing, type ServiceTracing } from './service-tracing.js';
export { enableGovernanceTracing, governanceTracingEnabled } from './tracing-switch.js';
export { traceProjectedEvents, traceIntervention, interventionAttributes } from './governance-spans.js';
export { interventionTracer } from './intervention-tracer.js';
export { parentContext } from './parent-context.js';
export { deliveryTracer, type DeliveryFacts } from './delivery-spans.js';
