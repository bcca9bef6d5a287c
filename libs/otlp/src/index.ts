/** OpenTelemetry traces in: OTLP decoding (protobuf and JSON) and the pure mapping of tool-call spans to agent events. */
export {
  decodeProtobufTraceRequest,
  encodeProtobufTraceRequest,
  encodeProtobufTraceResponse,
} from './otlp-protobuf.js';
export { readTraceRequest, OTLP_LIMITS } from './otlp-request.js';
export { OtlpInputError } from './otlp-input-error.js';
export { mapSpans, type MappedCall, type MappedSpans } from './map-spans.js';
export type { IgnoredReason, ToolConvention } from './tool-conventions.js';
export type { OtlpSpan, OtlpSpanEvent, AttributeMap, AttributeValue } from './otlp-span.js';
