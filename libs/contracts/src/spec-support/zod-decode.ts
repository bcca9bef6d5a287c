/**
 * The decode path as it was before the compiled fast path (kafka-binding.ts, agent-event-envelope.ts,
 * 2026-12-01): every event through zod, jsonValueProblem and a JSON.stringify for its size. Kept
 * verbatim as the oracle the property specs hold the fast path to, and as the "before" of
 * `npm run bench:decode`. Not used by any service.
 */
import { AGENT_EVENT_TYPES, AgentEventSchema, type AgentEvent, type AgentEventType } from '../agent-events.js';
import { AGENT_EVENT_VERSIONS, ContractError } from '../agent-event-envelope.js';
import { CE_TYPE_PREFIX, CloudEventSchema, type CloudEvent } from '../cloud-event.js';
import { runOfEvent } from '../event-coordinates.js';
import { jsonValueProblem } from '../json-limits.js';
import { CloudEventDecodeError, type KafkaRecord } from '../kafka-binding.js';
import { LIMITS } from '../limits.js';
import { stateKeyProblem } from '../state-key-size.js';
import { mayHoldUnstorableText, storableJson, storableText } from '../storable-text.js';

const text = (v: Buffer | string | undefined | null): string | undefined =>
  v === undefined || v === null ? undefined : typeof v === 'string' ? v : v.toString('utf8');

export function zodFromKafkaRecord(record: KafkaRecord): CloudEvent {
  const contentType = text(record.headers['content-type']) ?? '';
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
  } else if (text(record.headers['ce_specversion']) !== undefined) {
    candidate = {};
    for (const [header, value] of Object.entries(record.headers)) {
      if (header.startsWith('ce_') && value !== undefined) candidate[header.slice(3)] = storableText(text(value)!);
    }
    if (contentType) candidate.datacontenttype = contentType;
    const dataType = typeof candidate.datacontenttype === 'string' ? candidate.datacontenttype.toLowerCase() : '';
    if (raw !== undefined) {
      candidate.data = dataType.includes('json') || dataType === '' ? parseJsonValue(raw, 'value') : storableText(raw);
    }
  } else {
    throw new CloudEventDecodeError(
      'not a CloudEvent: neither content-type application/cloudevents+json (structured) nor a ce_specversion header (binary)',
    );
  }
  const parsed = CloudEventSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CloudEventDecodeError(`invalid CloudEvent: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data as CloudEvent;
}

function parseJsonValue(raw: string, where: string): unknown {
  if (jsonTextTooDeepByChars(raw)) {
    throw new CloudEventDecodeError(`${where} nests JSON deeper than ${LIMITS.jsonDepth} levels`);
  }
  try {
    const value: unknown = JSON.parse(raw);
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

export function zodCloudEventToAgentEvent(ce: CloudEvent): AgentEvent {
  if (!ce.type.startsWith(CE_TYPE_PREFIX)) {
    throw new ContractError('unknown_type', 'type', `unknown event type "${ce.type}"`);
  }
  const rest = ce.type.slice(CE_TYPE_PREFIX.length);
  const dot = rest.lastIndexOf('.');
  const [name, version] = dot < 0 ? [rest, ''] : [rest.slice(0, dot), rest.slice(dot + 1)];
  if (!(AGENT_EVENT_TYPES as readonly string[]).includes(name)) {
    throw new ContractError('unknown_type', 'type', `unknown event type "${ce.type}"`);
  }
  const versions = AGENT_EVENT_VERSIONS[name as AgentEventType];
  const upgrade = version === versions.current ? null : versions.upgrades[version];
  if (upgrade === undefined) {
    const accepted = [versions.current, ...Object.keys(versions.upgrades)].join(', ');
    throw new ContractError(
      'unsupported_version',
      'type',
      `unsupported version "${version}" of ${name}; this build accepts ${accepted}`,
    );
  }
  const tenant = ce['tenantid'];
  if (typeof tenant !== 'string') {
    throw new ContractError('invalid_field', 'tenantid', 'tenantid: the tenantid extension attribute is required');
  }
  const event = withCloudEventField(() =>
    parseCurrent({ type: name, id: ce.id, tenant, time: ce.time, data: upgrade ? upgrade(ce.data) : ce.data }),
  );
  const run = runOfEvent(event);
  if (ce['runid'] !== undefined && ce['runid'] !== run) {
    throw new ContractError(
      'invalid_field',
      'runid',
      `runid: extension says "${String(ce['runid'])}" but the event belongs to ${run === null ? 'no run' : `run "${run}"`}`,
    );
  }
  return event;
}

function withCloudEventField<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ContractError && error.field === 'tenant') {
      throw new ContractError(error.code, 'tenantid', error.message.replace(/^tenant:/, 'tenantid:'));
    }
    throw error;
  }
}

export function zodParseAgentEvent(input: unknown): AgentEvent {
  return parseCurrent(input, upgradePlainV1);
}

function upgradePlainV1(input: Record<string, unknown>): Record<string, unknown> {
  const data = input['data'];
  if (input['type'] !== 'verifier.result' || typeof data !== 'object' || data === null) return input;
  if ('finding' in data || !('passed' in data)) return input;
  return { ...input, data: AGENT_EVENT_VERSIONS['verifier.result'].upgrades['v1']!(data) };
}

function parseCurrent(
  input: unknown,
  upgrade: (input: Record<string, unknown>) => Record<string, unknown> = (i) => i,
): AgentEvent {
  const shape = jsonValueProblem(input);
  if (shape)
    throw new ContractError(
      shape.code === 'too_deep' ? 'too_deep' : 'invalid_field',
      shape.path || '(event)',
      shape.reason,
    );
  const size = Buffer.byteLength(JSON.stringify(input) ?? '', 'utf8');
  if (size > LIMITS.eventBytes) {
    throw new ContractError('too_large', '(event)', `event is ${size} bytes; the limit is ${LIMITS.eventBytes}`);
  }
  const parsed = AgentEventSchema.safeParse(
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? upgrade(input as Record<string, unknown>)
      : input,
  );
  if (parsed.success) {
    const keyProblem = stateKeyProblem(parsed.data);
    if (keyProblem) throw new ContractError('invalid_field', 'data.call', `data.call: ${keyProblem}`);
    return parsed.data;
  }
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || '(event)';
  throw new ContractError('invalid_field', field, `${field}: ${issue.message}`);
}

/** json-limits.ts's jsonTextTooDeep as it was: every character visited, inside strings too. */
export function jsonTextTooDeepByChars(text: string, limit: number = LIMITS.jsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
