import { afterEach, describe, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import { startServiceTracing } from './service-tracing.js';
import { governanceTracingEnabled } from './tracing-switch.js';

describe('startServiceTracing (standard OTEL_* variables)', () => {
  afterEach(() => trace.disable());

  it('is off by default, and with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true', () => {
    expect(startServiceTracing('svc', {})).toBeNull();
    expect(startServiceTracing('svc', { OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
    expect(startServiceTracing('svc', { OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(governanceTracingEnabled()).toBe(false);
  });

  it('with OTEL_TRACES_EXPORTER=otlp: registers a provider and turns the governance spans on until shutdown', async () => {
    const tracing = startServiceTracing('svc', {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1',
    });
    expect(tracing).not.toBeNull();
    expect(governanceTracingEnabled()).toBe(true);
    expect(trace.getTracer('t').startSpan('s').spanContext().traceId).not.toMatch(/^0+$/);
    await tracing!.shutdown();
    expect(governanceTracingEnabled()).toBe(false);
  });

  it('a value it does not know fails at start, naming the variable', () => {
    expect(() => startServiceTracing('svc', { OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      /^OTEL_TRACES_EXPORTER: .*otlp or none/,
    );
  });
});
