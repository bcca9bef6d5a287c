import { CE_CONTENT_TYPE_DATA, CE_TYPE_PREFIX, CLOUDEVENTS_SPEC_VERSION, type CloudEvent } from './cloud-event.js';
import {
  AgentEventSchema,
  AGENT_EVENT_TYPES,
  outcomeV1ToV2,
  outcomeV2DataToV3,
  outcomeV2ToV3,
  ToolCallOutcomeDataV1Schema,
  VerifierResultDataV1Schema,
  verifierV1ToV2,
  type AgentEvent,
  type AgentEventType,
} from './agent-events.js';
import { InterventionDataSchema, type InterventionData } from './intervention.js';
import { LIMITS } from './limits.js';
import { runOfEvent, sourceOfEvent } from './event-coordinates.js';
import { jsonValueProblem } from './json-limits.js';
import { stateKeyProblem } from './state-key-size.js';
import { compiledAgentEvent } from './agent-event-fast-path.js';

/** The version every event type started at. */
export const AGENT_EVENT_SCHEMA_VERSION = 'v1';
export const INTERVENTION_CE_TYPE = `${CE_TYPE_PREFIX}intervention.issued.v1`;

/**
 * Per event type: the version this build emits, and the older versions it still reads. An older
 * version's data is parsed with its own schema and converted to the current shape here, at the edge,
 * so nothing behind the envelope ever sees two shapes.
 */
export const AGENT_EVENT_VERSIONS: Readonly<
  Record<
    AgentEventType,
    { readonly current: string; readonly upgrades: Readonly<Record<string, (data: unknown) => unknown>> }
  >
> = {
  'tool_call.requested': { current: AGENT_EVENT_SCHEMA_VERSION, upgrades: {} },
  'tool_call.outcome': {
    current: 'v3',
    upgrades: {
      v2: outcomeV2DataToV3,
      v1: (data) => outcomeV2ToV3(outcomeV1ToV2(parseV1Data(ToolCallOutcomeDataV1Schema, data))),
    },
  },
  'verifier.result': {
    current: 'v2',
    upgrades: { v1: (data) => verifierV1ToV2(parseV1Data(VerifierResultDataV1Schema, data)) },
  },
  'operator.resolution': { current: AGENT_EVENT_SCHEMA_VERSION, upgrades: {} },
};

export const ceTypeOf = (type: AgentEventType): string =>
  `${CE_TYPE_PREFIX}${type}.${AGENT_EVENT_VERSIONS[type].current}`;

/** Every CloudEvent type this build reads, newest version of each event type first. */
export const ACCEPTED_CE_TYPES: readonly string[] = AGENT_EVENT_TYPES.flatMap((type) => [
  ceTypeOf(type),
  ...Object.keys(AGENT_EVENT_VERSIONS[type].upgrades).map((v) => `${CE_TYPE_PREFIX}${type}.${v}`),
]);

function parseV1Data<T>(
  schema: {
    safeParse(
      input: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
  },
  data: unknown,
): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = ['data', ...issue.path.map(String)].join('.');
  throw new ContractError('invalid_field', field, `${field}: ${issue.message}`);
}

/** A contract violation with the offending field, for HTTP 400s and DLQ reasons alike. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
  constructor(
    readonly code: 'too_large' | 'too_deep' | 'unknown_type' | 'unsupported_version' | 'invalid_field',
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Agent event → CloudEvent; tenant and run ride as extensions so routers need not parse data. */
export function agentEventToCloudEvent(event: AgentEvent, traceparent?: string): CloudEvent<AgentEvent['data']> {
  const run = runOfEvent(event);
  return {
    specversion: CLOUDEVENTS_SPEC_VERSION,
    id: event.id,
    source: sourceOfEvent(event),
    type: ceTypeOf(event.type),
    time: event.time,
    datacontenttype: CE_CONTENT_TYPE_DATA,
    tenantid: event.tenant,
    ...(run ? { runid: run } : {}),
    ...(traceparent ? { traceparent } : {}),
    data: event.data,
  };
}

/** CloudEvent → validated agent event, or a ContractError naming the field at fault. */
export function cloudEventToAgentEvent(ce: CloudEvent): AgentEvent {
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
    parseCurrentAgentEvent({
      type: name,
      id: ce.id,
      tenant,
      time: ce.time,
      data: upgrade ? upgrade(ce.data) : ce.data,
    }),
  );
  // Routers partition and filter on runid without reading data: a runid that disagrees with the data would
  // fold the event into one run's state while delivering it beside another's.
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

/** The agent event's tenant travels as the tenantid extension: name the attribute the producer actually set. */
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

/**
 * Validates a plain agent event object (the JSON form used by the HTTP ingest and the CLI). That form
 * names no version, so an older shape is recognised by its fields and converted here, like a CloudEvent's
 * older version: a verifier.result whose data has `passed` and no `finding` is v1.
 */
export function parseAgentEvent(input: unknown): AgentEvent {
  return parseCurrentAgentEvent(input, upgradePlainV1);
}

function upgradePlainV1(input: Record<string, unknown>): Record<string, unknown> {
  const data = input['data'];
  if (input['type'] !== 'verifier.result' || typeof data !== 'object' || data === null) return input;
  if ('finding' in data || !('passed' in data)) return input;
  return { ...input, data: AGENT_EVENT_VERSIONS['verifier.result'].upgrades['v1']!(data) };
}

/** An agent event in this build's current shapes (a CloudEvent's data already converted by its version). */
function parseCurrentAgentEvent(
  input: unknown,
  upgrade: (input: Record<string, unknown>) => Record<string, unknown> = (i) => i,
): AgentEvent {
  // The common case in one walk (agent-event-fast-path.ts); every refusal, and every doubt, takes the zod path.
  const compiled = compiledAgentEvent(input);
  if (compiled !== null && stateKeyProblem(compiled) === null) return compiled;
  // Before anything walks the value recursively (JSON.stringify below, zod): see json-limits.ts.
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

export function interventionToCloudEvent(data: InterventionData, traceparent?: string): CloudEvent<InterventionData> {
  return {
    specversion: CLOUDEVENTS_SPEC_VERSION,
    id: data.interventionId,
    source: `/tenants/${data.tenant}/tokencircuit/decision`,
    type: INTERVENTION_CE_TYPE,
    time: data.issuedAt,
    subject: data.keyId,
    datacontenttype: CE_CONTENT_TYPE_DATA,
    tenantid: data.tenant,
    ...(data.run ? { runid: data.run } : {}),
    ...(traceparent ? { traceparent } : {}),
    data,
  };
}

export function cloudEventToIntervention(ce: CloudEvent): InterventionData {
  if (ce.type !== INTERVENTION_CE_TYPE) {
    throw new ContractError('unknown_type', 'type', `expected ${INTERVENTION_CE_TYPE}, got "${ce.type}"`);
  }
  const parsed = InterventionDataSchema.safeParse(ce.data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = `data.${issue.path.join('.')}`;
  throw new ContractError('invalid_field', field, `${field}: ${issue.message}`);
}
