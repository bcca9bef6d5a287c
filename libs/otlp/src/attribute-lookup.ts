import type { AttributeValue, OtlpSpan } from './otlp-span.js';

/** The Vercel AI SDK puts `experimental_telemetry.metadata` on its spans under this prefix. */
const VERCEL_METADATA = 'ai.telemetry.metadata.';

/**
 * Where a fact may be written, most specific first: the span, the Vercel AI SDK's telemetry metadata
 * (`metadata: { 'tokencircuit.principal': … }` arrives as `ai.telemetry.metadata.tokencircuit.principal`),
 * then the resource (`OTEL_RESOURCE_ATTRIBUTES=tokencircuit.principal=…`). The first name found wins.
 */
export function attribute(span: OtlpSpan, ...names: readonly string[]): AttributeValue | undefined {
  for (const name of names) {
    const value = span.attributes.get(name) ?? span.attributes.get(VERCEL_METADATA + name) ?? span.resource.get(name);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** The first of the names that holds a string (a number is written out: ids are often numbers). */
export function text(span: OtlpSpan, ...names: readonly string[]): string | null {
  for (const name of names) {
    const value = attribute(span, name);
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

/** The first of the names that holds an integer (or a decimal string of one). */
export function integer(span: OtlpSpan, ...names: readonly string[]): number | null {
  for (const name of names) {
    const value = attribute(span, name);
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  }
  return null;
}

/** The span's own attribute only (not metadata, not resource): for facts that belong to one span. */
export function own(span: OtlpSpan, name: string): string | null {
  const value = span.attributes.get(name);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}
