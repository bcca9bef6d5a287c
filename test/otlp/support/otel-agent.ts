import { context, trace, SpanKind, SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** The OpenTelemetry JS SDK's own OTLP exporter, pointed at the API, with every export's result kept. */
export class RecordingExporter implements SpanExporter {
  readonly results: ExportResult[] = [];
  /** Every batch handed to the exporter, as the SDK's span processor gave it. */
  readonly batches: ReadableSpan[][] = [];
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.batches.push(spans);
    this.inner.export(spans, (result) => {
      this.results.push(result);
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
  /** Sends these spans once more (a collector's retry), resolving with the result. */
  resend(spans: ReadableSpan[]): Promise<ExportResult> {
    return new Promise((resolve) => this.export(spans, resolve));
  }
  /** Every export so far succeeded: the receiver answered 2xx and the exporter read its answer. */
  get allSucceeded(): boolean {
    return this.results.length > 0 && this.results.every((r) => r.code === ExportResultCode.SUCCESS);
  }
}

export type Encoding = 'protobuf' | 'json';

/** An exporter of the given encoding to `${apiUrl}/v1/traces` with the tenant's key (gzip on request). */
export function otlpExporter(apiUrl: string, apiKey: string, encoding: Encoding, gzip = false): RecordingExporter {
  const options = {
    url: `${apiUrl}/v1/traces`,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(gzip ? { compression: 'gzip' as never } : {}),
  };
  return new RecordingExporter(encoding === 'protobuf' ? new ProtoExporter(options) : new JsonExporter(options));
}

/** A tracer provider as an instrumented agent has one: a resource, a batch processor, an OTLP exporter. */
export function agentTracing(exporter: SpanExporter, resource: Record<string, string>) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(resource),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return { provider, tracer: provider.getTracer('test-agent') };
}

/** Starts a span as a child of `parent` (explicit context: no global context manager in the specs). */
export function child(tracer: Tracer, parent: Span, name: string, kind: SpanKind = SpanKind.INTERNAL): Span {
  return tracer.startSpan(name, { kind }, trace.setSpan(context.active(), parent));
}

/**
 * An HTTP client span as @opentelemetry/instrumentation-undici writes one (HTTP semantic conventions
 * 1.27+): method, URL, status or error.type, ended in error for a 4xx/5xx or a failure.
 */
export function httpClientSpan(
  tracer: Tracer,
  parent: Span,
  method: string,
  url: string,
  outcome: { status: number; headers?: Record<string, string> } | { errorType: string; message: string },
): void {
  const span = child(tracer, parent, method, SpanKind.CLIENT);
  span.setAttributes({ 'http.request.method': method, 'url.full': url, 'server.address': new URL(url).hostname });
  if ('status' in outcome) {
    span.setAttribute('http.response.status_code', outcome.status);
    for (const [name, value] of Object.entries(outcome.headers ?? {}))
      span.setAttribute(`http.response.header.${name}`, [value]);
    if (outcome.status >= 400) {
      span.setAttribute('error.type', String(outcome.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  } else {
    span.setAttribute('error.type', outcome.errorType);
    span.recordException({ name: outcome.errorType, message: outcome.message });
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.message });
  }
  span.end();
}
