import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { enableGovernanceTracing } from './tracing-switch.js';

/**
 * The standard variables this reads; the exporter reads the rest itself (OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, _HEADERS, _TIMEOUT, _COMPRESSION, OTEL_BSP_*).
 */
const TracingEnvSchema = z.object({
  /** Off unless set to otlp: the SDKs' default is otlp, ours is none, so no service exports by surprise. */
  OTEL_TRACES_EXPORTER: z.enum(['none', 'otlp']).default('none'),
  OTEL_SDK_DISABLED: z.enum(['true', 'false']).default('false'),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
});

export interface ServiceTracing {
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK for one service process when OTEL_TRACES_EXPORTER=otlp (and not
 * OTEL_SDK_DISABLED): a batch processor and the OTLP/HTTP protobuf exporter, registered as the global
 * tracer provider. Returns null when tracing is off. A bad value fails at start naming the variable.
 */
export function startServiceTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): ServiceTracing | null {
  const parsed = TracingEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join('.')}: ${issue.message} (tracing: set OTEL_TRACES_EXPORTER=otlp or none)`);
  }
  const settings = parsed.data;
  if (settings.OTEL_TRACES_EXPORTER !== 'otlp' || settings.OTEL_SDK_DISABLED === 'true') return null;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.OTEL_SERVICE_NAME ?? serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  trace.setGlobalTracerProvider(provider);
  enableGovernanceTracing();
  return {
    shutdown: async () => {
      enableGovernanceTracing(false);
      await provider.shutdown();
    },
  };
}
