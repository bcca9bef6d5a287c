type JsonObject = Record<string, unknown>;
type Errors = (...statuses: number[]) => JsonObject;

const binary = { type: 'string', format: 'binary' };

/**
 * The OTLP/HTTP trace receiver (docs/opentelemetry.md). Its bodies are the OpenTelemetry project's own
 * ExportTraceServiceRequest / ExportTraceServiceResponse messages, in protobuf or their JSON mapping: the
 * schema is opentelemetry-proto's, referenced rather than copied.
 */
export function otlpPaths(errors: Errors): JsonObject {
  return {
    '/v1/traces': {
      post: {
        operationId: 'exportTraces',
        summary: 'OTLP/HTTP trace export: tool-call spans become tool_call.requested + tool_call.outcome',
        description:
          'Point an OpenTelemetry Collector `otlphttp` exporter or an SDK OTLP exporter here with the tenant API key. ' +
          'GenAI `execute_tool`, MCP, Vercel AI SDK `ai.toolCall` and OpenInference TOOL spans are mapped; other ' +
          'spans are counted and ignored. Span ids make redelivery idempotent. Bodies may be gzip-encoded ' +
          '(`Content-Encoding: gzip`). Spans arrive after the call: OTLP-fed agents get interventions and fleet ' +
          'learning, not preflight.',
        externalDocs: {
          description: 'OTLP/HTTP and the ExportTraceServiceRequest message (opentelemetry-proto v1.11.0)',
          url: 'https://opentelemetry.io/docs/specs/otlp/#otlphttp',
        },
        requestBody: {
          required: true,
          content: {
            'application/x-protobuf': { schema: binary },
            'application/json': { schema: { type: 'object', description: 'ExportTraceServiceRequest (JSON mapping)' } },
          },
        },
        responses: {
          '200': {
            description:
              'Every accepted event acknowledged by the broker. ExportTraceServiceResponse in the request’s encoding; ' +
              '`partialSuccess.rejectedSpans` and `errorMessage` name tool-call spans refused.',
            content: {
              'application/x-protobuf': { schema: binary },
              'application/json': { schema: { type: 'object' } },
            },
          },
          ...errors(400, 401, 413, 415, 429, 503),
        },
      },
    },
  };
}
