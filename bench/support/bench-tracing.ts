import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Message } from 'kafkajs';
import { enableGovernanceTracing } from '@tokencircuit/tracing';

/**
 * The services' own tracing for bench:latency --tracing: an OTLP/HTTP sink on this machine that reads and
 * drops what it is sent (a collector's cost is not the services'), the SDK as startServiceTracing builds
 * it (batch processor, OTLP protobuf exporter) in this process, or the OTEL_* variables for service processes.
 */
export class SpanSink {
  requests = 0;
  bytes = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<SpanSink> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const sink = new SpanSink(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`);
    server.on('request', (request, response) => {
      request.on('data', (chunk: Buffer) => (sink.bytes += chunk.length));
      request.on('end', () => {
        sink.requests += 1;
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    return sink;
  }

  /** The variables a service process reads (startServiceTracing and the exporter). */
  env(): Record<string, string> {
    return { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: this.url };
  }

  /** The SDK in this process, as startServiceTracing would start it, exporting here. */
  traceThisProcess(): BasicTracerProvider {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'latency-bench' }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: this.url }))],
    });
    trace.setGlobalTracerProvider(provider);
    enableGovernanceTracing();
    return provider;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The message as a traced agent sends it: a W3C traceparent of its own span in the record's headers. */
export function withTraceparent(message: Message): Message {
  const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
  return { ...message, headers: { ...message.headers, traceparent } };
}
