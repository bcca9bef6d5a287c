/** An attribute value as OTLP's AnyValue carries it (bytes are kept as null: no mapping reads them). */
export type AttributeValue = string | number | boolean | null | readonly AttributeValue[] | AttributeMap;
export type AttributeMap = ReadonlyMap<string, AttributeValue>;

/** One span of an ExportTraceServiceRequest, read and checked (otlp-request.ts), with its resource. */
export interface OtlpSpan {
  /** 32 lower-case hex digits. */
  readonly traceId: string;
  /** 16 lower-case hex digits. */
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly name: string;
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly startNanos: bigint;
  readonly endNanos: bigint;
  readonly attributes: AttributeMap;
  readonly events: readonly OtlpSpanEvent[];
  /** StatusCode: 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message: string };
  readonly resource: AttributeMap;
  /** The instrumentation scope's name ("ai", "@arizeai/openinference-core", …). */
  readonly scope: string;
}

export interface OtlpSpanEvent {
  readonly name: string;
  readonly timeNanos: bigint;
  readonly attributes: AttributeMap;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;
