import { DiagnosticSeverity, Parser, type AsyncAPIDocumentInterface } from '@asyncapi/parser';
import type { ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  agentEventToCloudEvent,
  cloudEventToAgentEvent,
  ContractError,
  interventionToCloudEvent,
  parseAgentEvent,
} from './agent-event-envelope.js';
import { CE_CONTENT_TYPE_STRUCTURED } from './cloud-event.js';
import { DLQ_HEADERS, DLQ_REASON_MAX_CHARS } from './dead-letter.js';
import { fromKafkaRecord, toKafkaRecord, type ContentMode, type KafkaRecord } from './kafka-binding.js';
import { strictAjv } from './spec-support/ajv.js';
import { SAMPLE_EVENTS } from './spec-support/sample-events.js';
import { permissionBlock } from './spec-support/sample-intervention.js';
import { permissionTriggered } from './spec-support/sample-episode.js';
import { cloudEventToEpisode, EPISODE_CE_TYPES, episodeToCloudEvent } from './episode.js';
import { thrown } from './spec-support/thrown.js';
import { partitionKey, TOPICS } from './topics.js';

const source = fileURLToPath(new URL('../../../docs/asyncapi.yaml', import.meta.url));

let document: AsyncAPIDocumentInterface;
let errors: string[];

beforeAll(async () => {
  const parsed = await new Parser().parse(readFileSync(source, 'utf8'), { source });
  errors = parsed.diagnostics
    .filter((d) => d.severity === DiagnosticSeverity.Error)
    .map((d) => `${d.path.join('.')}: ${d.message} (${d.code})`);
  if (parsed.document) document = parsed.document;
  // The parser resolves every $ref and runs Spectral: ~2 s idle, 13 s measured on a loaded 2-core machine.
}, 60_000);

const messageOf = (id: string) => {
  const message = document
    .messages()
    .all()
    .find((m) => m.id() === id);
  if (!message) throw new Error(`docs/asyncapi.yaml has no message ${id}`);
  return message;
};

/** Ajv over the parser's resolved schemas; the parser tags each schema with an x-parser-schema-id. */
const compile = (schema: unknown): ValidateFunction => strictAjv('x-parser-schema-id').compile(schema as object);
/** Multi-format payloads wrap the schema; plain ones are the schema. */
const payloadValidator = (id: string) => {
  const json = messageOf(id).payload()!.json() as { schemaFormat?: string; schema?: unknown };
  return compile(json.schemaFormat ? json.schema : json);
};
const headersValidator = (id: string) => compile(messageOf(id).headers()!.json());

const asStrings = (headers: KafkaRecord['headers']) =>
  Object.fromEntries(Object.entries(headers).map(([name, v]) => [name, v?.toString()]));

const expectValid = (validate: ValidateFunction, value: unknown) => {
  validate(value);
  expect(validate.errors ?? []).toEqual([]);
};

describe('docs/asyncapi.yaml', () => {
  it('parses as AsyncAPI 3.0 without a single error diagnostic', () => {
    expect(errors).toEqual([]);
    expect(document.version()).toBe('3.0.0');
  });

  it.each(Object.values(TOPICS).map((t) => [t.name, t.partitions] as const))(
    'describes topic %s with its %i partitions',
    (name, partitions) => {
      const channel = document
        .channels()
        .all()
        .find((c) => c.address() === name);
      expect(channel, `no channel with address ${name}`).toBeDefined();
      expect(channel!.bindings().get('kafka')?.value()).toMatchObject({ partitions });
    },
  );

  it('has each app send and receive what it does', () => {
    const operations = document
      .operations()
      .all()
      .map((o) => [o.id(), o.action(), o.channels().all()[0]?.address()]);
    expect(operations).toEqual([
      ['sdkSendAgentEvent', 'send', TOPICS.agentEvents.name],
      ['projectorReceiveAgentEvents', 'receive', TOPICS.agentEvents.name],
      ['projectorSendDeadLetter', 'send', TOPICS.agentEventsDlq.name],
      ['decisionSendIntervention', 'send', TOPICS.interventions.name],
      ['sdkReceiveInterventions', 'receive', TOPICS.interventions.name],
      ['decisionSendEpisode', 'send', TOPICS.episodes.name],
      ['notifierReceiveEpisodes', 'receive', TOPICS.episodes.name],
      ['notifierSendDeadLetters', 'send', TOPICS.notifierDlq.name],
      ['decisionSendAuditAnchor', 'send', TOPICS.auditAnchors.name],
    ]);
  });

  it('keys every CloudEvent message by tenant/run', () => {
    for (const id of [
      'agentEventStructured',
      'agentEventBinary',
      'interventionStructured',
      'interventionBinary',
      'episodeStructured',
    ]) {
      const key = messageOf(id).bindings().get('kafka')?.value()?.['key'];
      expect(key, id).toMatchObject({
        type: 'string',
        examples: [partitionKey('acme', 'run-7f3a'), partitionKey('acme', null)],
      });
    }
  });

  it('documents the DLQ headers the projector writes', () => {
    const headers = messageOf('deadLetter').headers()!.json() as {
      required: string[];
      properties: Record<string, { maxLength?: number }>;
    };
    expect(headers.required.sort()).toEqual(Object.values(DLQ_HEADERS).sort());
    expect(headers.properties[DLQ_HEADERS.reason]?.maxLength).toBe(DLQ_REASON_MAX_CHARS);
  });
});

describe('docs/asyncapi.yaml agrees with the codec', () => {
  it.each(SAMPLE_EVENTS.map((e) => [`${e.type} ${e.id}`, e] as const))(
    'what we encode for %s fits the documented messages in both modes',
    (_, sample) => {
      const ce = agentEventToCloudEvent(
        parseAgentEvent(sample),
        '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      );
      const structured = toKafkaRecord(ce, 'structured', 'acme/run');
      expectValid(headersValidator('agentEventStructured'), asStrings(structured.headers));
      expectValid(payloadValidator('agentEventStructured'), JSON.parse(structured.value!.toString()));
      const binary = toKafkaRecord(ce, 'binary', 'acme/run');
      expectValid(headersValidator('agentEventBinary'), asStrings(binary.headers));
      expectValid(payloadValidator('agentEventBinary'), JSON.parse(binary.value!.toString()));
    },
  );

  it('what we encode for an intervention fits the documented messages in both modes', () => {
    const ce = interventionToCloudEvent(permissionBlock);
    for (const [mode, id] of [
      ['structured', 'interventionStructured'],
      ['binary', 'interventionBinary'],
    ] as const satisfies readonly (readonly [ContentMode, string])[]) {
      const record = toKafkaRecord(ce, mode, 'acme/run-7f3a');
      expectValid(headersValidator(id), asStrings(record.headers));
      expectValid(payloadValidator(id), JSON.parse(record.value!.toString()));
    }
  });

  it('what we encode for an episode step fits the documented message, and decodes back', () => {
    const ce = episodeToCloudEvent(permissionTriggered);
    const record = toKafkaRecord(ce, 'structured', 'acme/*');
    expectValid(headersValidator('episodeStructured'), asStrings(record.headers));
    expectValid(payloadValidator('episodeStructured'), JSON.parse(record.value!.toString()));
    expect(cloudEventToEpisode(JSON.parse(record.value!.toString()))).toEqual(permissionTriggered);
    expect(() => cloudEventToEpisode({ ...ce, type: EPISODE_CE_TYPES.resolved })).toThrow(/does not match/);
  });

  it('the structured schema ties data to type: outcome data under a requested type is refused', () => {
    const ce = agentEventToCloudEvent(parseAgentEvent(SAMPLE_EVENTS[1]));
    const validate = payloadValidator('agentEventStructured');
    expect(validate({ ...ce, type: 'dev.tokencircuit.operator.resolution.v1' })).toBe(false);
    expect(validate({ ...ce, tenantid: undefined })).toBe(false);
  });

  it('every agent event example decodes to a valid agent event', () => {
    const examples = ['agentEventStructured', 'agentEventBinary'].flatMap((id) =>
      messageOf(id)
        .examples()
        .all()
        .map((example) => ({ id, example })),
    );
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const { id, example } of examples) {
      expectValid(headersValidator(id), example.headers());
      expectValid(payloadValidator(id), example.payload());
      const record: KafkaRecord = {
        key: 'acme/run',
        value: Buffer.from(JSON.stringify(example.payload())),
        headers: example.headers() as KafkaRecord['headers'],
      };
      expect(() => cloudEventToAgentEvent(fromKafkaRecord(record)), `${id} ${example.name()}`).not.toThrow();
    }
  });

  it('the dead-letter example carries exactly the reason our decoder gives its bytes', () => {
    const [example] = messageOf('deadLetter').examples().all();
    const headers = example!.headers() as Record<string, string>;
    const original: KafkaRecord = {
      key: 'acme/run-7f3a',
      value: Buffer.from(example!.payload() as unknown as string),
      headers: { 'content-type': CE_CONTENT_TYPE_STRUCTURED },
    };
    const error = thrown(ContractError, () => cloudEventToAgentEvent(fromKafkaRecord(original)));
    expect({ code: headers[DLQ_HEADERS.code], reason: headers[DLQ_HEADERS.reason] }).toEqual({
      code: error.code,
      reason: error.message,
    });
  });
});
