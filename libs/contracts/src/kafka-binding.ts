import { mayHoldUnstorableText, storableJson, storableText } from './storable-text.js';
import { jsonTextTooDeep } from './json-limits.js';
import { LIMITS } from './limits.js';
import { compiledCloudEvent } from './cloud-event-fast-path.js';
import { CE_CONTENT_TYPE_DATA, CE_CONTENT_TYPE_STRUCTURED, CloudEventSchema, type CloudEvent } from './cloud-event.js';

/** One header value; Kafka allows a name more than once in a record, and kafkajs then gives every value, in order. */
export type KafkaHeaderValue = Buffer | string | readonly (Buffer | string)[] | undefined;

/** The shape of a Kafka record as far as the CloudEvents Kafka binding cares (kafkajs-compatible). */
export interface KafkaRecord {
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers: Record<string, Buffer | string | undefined>;
}

/** A record as received: any header name may have come more than once (see fromKafkaRecord). */
export interface ReceivedKafkaRecord {
  readonly key: Buffer | string | null;
  readonly value: Buffer | string | null;
  readonly headers: Readonly<Record<string, KafkaHeaderValue>>;
}

export type ContentMode = 'structured' | 'binary';

/** Thrown for a record that is not a valid CloudEvent; `reason` is fit for a DLQ header, `code` for its code. */
export class CloudEventDecodeError extends Error {
  override readonly name = 'CloudEventDecodeError';
  constructor(
    readonly reason: string,
    readonly code: 'not_a_cloudevent' | 'repeated_header' = 'not_a_cloudevent',
  ) {
    super(reason);
  }
}

const text = (v: Buffer | string | undefined | null): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : v.toString('utf8');

/**
 * The one value of a header the binding reads. The binding maps each attribute (and the content type) to one
 * header; a name given twice is ambiguous (which tenant? which content mode?), so the record is refused,
 * never decided by picking the first or the last value. Headers the binding does not read may repeat freely.
 */
function headerText(name: string, value: KafkaHeaderValue): string | undefined {
  if (!isRepeated(value)) return text(single(value));
  throw new CloudEventDecodeError(
    `header ${name} is repeated (${value.length} values); the CloudEvents Kafka binding maps it to one header`,
    'repeated_header',
  );
}

function isRepeated(value: KafkaHeaderValue): value is readonly (Buffer | string)[] {
  return Array.isArray(value) && value.length > 1;
}

function single(value: KafkaHeaderValue): Buffer | string | undefined {
  return Array.isArray(value) ? (value as readonly (Buffer | string)[])[0] : (value as Buffer | string | undefined);
}

/** Encodes per the CloudEvents Kafka protocol binding 1.0; `partitionkey` becomes the record key. */
export function toKafkaRecord(event: CloudEvent, mode: ContentMode, key: string | null): KafkaRecord {
  if (mode === 'structured') {
    return {
      key,
      value: Buffer.from(JSON.stringify(event), 'utf8'),
      headers: { 'content-type': CE_CONTENT_TYPE_STRUCTURED },
    };
  }
  const { data, datacontenttype, ...attributes } = event;
  const headers: Record<string, string> = { 'content-type': datacontenttype ?? CE_CONTENT_TYPE_DATA };
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) headers[`ce_${name}`] = String(value);
  }
  return { key, value: data === undefined ? null : Buffer.from(JSON.stringify(data), 'utf8'), headers };
}

/** Decodes either content mode; throws CloudEventDecodeError with a precise reason. */
export function fromKafkaRecord(record: ReceivedKafkaRecord): CloudEvent {
  const contentType = headerText('content-type', record.headers['content-type']) ?? '';
  // Media types compare case-insensitively; parameters such as charset do not change the mode.
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  const raw = text(record.value);
  let candidate: Record<string, unknown>;
  if (mediaType.startsWith('application/cloudevents-batch')) {
    throw new CloudEventDecodeError(`batched CloudEvents (${mediaType}) are not accepted`);
  } else if (mediaType.startsWith('application/cloudevents')) {
    if (mediaType !== 'application/cloudevents+json') {
      throw new CloudEventDecodeError(`structured CloudEvent in an unsupported format: ${mediaType}`);
    }
    if (raw === undefined || raw === '') throw new CloudEventDecodeError('structured CloudEvent with an empty value');
    candidate = parseJsonObject(raw, 'value');
  } else if (headerText('ce_specversion', record.headers['ce_specversion']) !== undefined) {
    candidate = {};
    for (const [header, value] of Object.entries(record.headers)) {
      if (!header.startsWith('ce_')) continue;
      const attribute = headerText(header, value);
      // Absent headers are not attributes: some producers (the cloudevents SDK among them) emit undefined ones.
      if (attribute !== undefined) candidate[header.slice(3)] = storableText(attribute);
    }
    if (contentType) candidate.datacontenttype = contentType;
    // content-type is the binary mode's datacontenttype; a stray ce_datacontenttype only counts without it.
    const dataType = typeof candidate.datacontenttype === 'string' ? candidate.datacontenttype.toLowerCase() : '';
    if (raw !== undefined) {
      candidate.data = dataType.includes('json') || dataType === '' ? parseJsonValue(raw, 'value') : storableText(raw);
    }
  } else {
    throw new CloudEventDecodeError(
      'not a CloudEvent: neither content-type application/cloudevents+json (structured) nor a ce_specversion header (binary)',
    );
  }
  // The usual envelope without zod (cloud-event-fast-path.ts); zod judges, and words, the rest.
  const compiled = compiledCloudEvent(candidate);
  if (compiled !== null) return compiled;
  const parsed = CloudEventSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CloudEventDecodeError(`invalid CloudEvent: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data as CloudEvent;
}

function parseJsonValue(raw: string, where: string): unknown {
  // On the text, before any recursive walk of the value could overflow the stack (json-limits.ts).
  if (jsonTextTooDeep(raw)) {
    throw new CloudEventDecodeError(`${where} nests JSON deeper than ${LIMITS.jsonDepth} levels`);
  }
  try {
    const value: unknown = JSON.parse(raw);
    // The walk runs only for the rare value whose text escapes a NUL or a surrogate.
    return mayHoldUnstorableText(raw) ? storableJson(value) : value;
  } catch (error) {
    throw new CloudEventDecodeError(`${where} is not JSON: ${(error as Error).message}`);
  }
}

function parseJsonObject(raw: string, where: string): Record<string, unknown> {
  const value = parseJsonValue(raw, where);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CloudEventDecodeError(`${where} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
