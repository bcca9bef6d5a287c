import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { OtlpInputError } from './otlp-input-error.js';

/** The vendored opentelemetry-proto definitions (proto/README.md says which tag and why they are vendored). */
const PROTO_ROOT = fileURLToPath(new URL('../proto', import.meta.url));
const REQUEST = 'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest';
const RESPONSE = 'opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse';

let types: { request: protobuf.Type; response: protobuf.Type } | null = null;

// Loaded at first use, once: protobufjs reads the four .proto files and builds its decoders from them.
function otlpTypes(): { request: protobuf.Type; response: protobuf.Type } {
  if (types) return types;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => `${PROTO_ROOT}/${target}`;
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto');
  types = { request: root.lookupType(REQUEST), response: root.lookupType(RESPONSE) };
  return types;
}

/**
 * An ExportTraceServiceRequest in protobuf → the same plain shape OTLP/JSON has (ids as hex, 64-bit
 * integers as decimal strings, enums as numbers), so one reader (otlp-request.ts) serves both encodings.
 * Anything protobufjs cannot decode (truncated, wrong wire types, nesting past the stack) is an OtlpInputError.
 */
export function decodeProtobufTraceRequest(bytes: Uint8Array): unknown {
  const { request } = otlpTypes();
  let message: protobuf.Message;
  try {
    message = request.decode(bytes);
  } catch (error) {
    throw new OtlpInputError(
      '(body)',
      `the body is not an OTLP ExportTraceServiceRequest: ${(error as Error).message}`,
    );
  }
  return request.toObject(message, { longs: String, enums: Number, bytes: Array, defaults: false, arrays: true });
}

/** The ExportTraceServiceResponse, in protobuf: empty, or the partial success (spans rejected and why). */
export function encodeProtobufTraceResponse(
  partial: { rejectedSpans: number; errorMessage: string } | null,
): Uint8Array {
  const { response } = otlpTypes();
  const body = partial === null ? {} : { partialSuccess: partial };
  return response.encode(response.fromObject(body)).finish();
}

/**
 * A plain ExportTraceServiceRequest (protobufjs's object form: ids as bytes) → protobuf. For specs and
 * benchmarks that build requests the SDK's exporters would never send (hostile input, many spans).
 */
export function encodeProtobufTraceRequest(request: Record<string, unknown>): Uint8Array {
  const { request: type } = otlpTypes();
  return type.encode(type.fromObject(request)).finish();
}
