import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { LIMITS, TOPICS } from '@tokencircuit/contracts';
import { GovernorConfigError, type PublishError } from '../errors/sdk-errors.js';
import type { IsEmpty } from '../capture/result-facts.js';
import type { EventQueue } from '../transport/event-queue.js';
import type { PreflightAnswers } from '../transport/preflight-client.js';
import { isFunction, problemsOf } from './zod-problems.js';

/** The TokenCircuit HTTP API: preflight, and ingest when Kafka is not reachable. */
export interface ApiEndpoint {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  /** The tenant's API key (Bearer). */
  readonly apiKey: string;
}

/**
 * A kafkajs `Kafka` client, by the two methods the SDK calls. Structural on purpose: these declarations
 * must not import kafkajs, so an HTTP-only project type-checks without it installed (issue 27).
 */
export interface KafkaClient {
  producer(...args: never[]): unknown;
  consumer(...args: never[]): unknown;
}

export interface KafkaEndpoint {
  /** Bootstrap brokers (host:port); or pass `kafka`, a kafkajs client you configured (TLS, SASL). */
  readonly brokers?: readonly string[];
  readonly kafka?: KafkaClient;
  /** Agent-events topic; default tokencircuit.agent-events.v1. */
  readonly topic?: string;
  /** Interventions topic; default tokencircuit.interventions.v1. */
  readonly interventionsTopic?: string;
  readonly clientId?: string;
}

/**
 * Events straight to Kafka (api adds preflight), or everything over the HTTP API. Over HTTP, `queue` (an
 * EventQueue, shareable by many governors) sends the events in order and in batches, and lets the events
 * nothing waits on (a read's request, a success's outcome) leave after the call returns.
 */
export type Transport =
  | { readonly kafka: KafkaEndpoint; readonly api?: ApiEndpoint }
  | { readonly http: ApiEndpoint; readonly queue?: EventQueue; readonly preflightAnswers?: PreflightAnswers };

export interface InterventionWait {
  /** How long a failed call waits for its intervention before the tool's own error is rethrown. */
  readonly budgetMs?: number;
  /** HTTP transport only: how often the audit API is polled within the budget. */
  readonly pollIntervalMs?: number;
}

export interface GovernorOptions {
  readonly tenant: string;
  readonly agent: string;
  /** Default: a random run id per governor. */
  readonly run?: string;
  /** Defaults for every tool; a tool's meta may override them. */
  readonly principal?: string | null;
  readonly authScope?: string | null;
  readonly transport: Transport;
  /** After a failed call, wait for the backend's intervention (default true, 1.5 s). */
  readonly waitForIntervention?: boolean | InterventionWait;
  /** When the preflight API cannot be reached: throw (default) or let the call run. */
  readonly preflightUnavailable?: 'throw' | 'allow';
  /** Called instead of throwing when an event cannot be published. Never lose an event silently. */
  readonly onPublishError?: (error: PublishError) => void;
  /** Default emptiness test for successful results (see defaultIsEmpty). */
  readonly isEmpty?: IsEmpty;
  /** Kafka record encoding (CloudEvents Kafka binding); default binary. */
  readonly contentMode?: 'binary' | 'structured';
  /** How long createGovernor waits for Kafka (producer and intervention consumer). */
  readonly connectTimeoutMs?: number;
  /** Event timestamps come from here (tests, replays). */
  readonly clock?: () => Date;
}

const Id = z.string().min(1).max(LIMITS.idChars);
const HttpUrl = z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, ''));
const ApiSchema = z.object({ url: HttpUrl, apiKey: z.string().min(1) }).strict();
const Broker = z.string().regex(/^[^\s:]+:\d+$/, 'must be host:port');
const KafkaClientSchema = z.custom<KafkaClient>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    isFunction((value as KafkaClient).producer) &&
    isFunction((value as KafkaClient).consumer),
  'must be a kafkajs Kafka instance',
);
const KafkaSchema = z
  .object({
    brokers: z.array(Broker).min(1).optional(),
    kafka: KafkaClientSchema.optional(),
    topic: Id.default(TOPICS.agentEvents.name),
    interventionsTopic: Id.default(TOPICS.interventions.name),
    clientId: Id.default('tokencircuit-sdk'),
  })
  .strict()
  .refine((k) => (k.brokers === undefined) !== (k.kafka === undefined), {
    message: 'give exactly one of brokers or kafka',
  });
const KafkaTransportSchema = z.object({ kafka: KafkaSchema, api: ApiSchema.optional() }).strict();
const QueueSchema = z.custom<EventQueue>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    isFunction((value as { enqueue?: unknown }).enqueue) &&
    isFunction((value as { publish?: unknown }).publish),
  'must be an EventQueue',
);
const AnswersSchema = z.custom<PreflightAnswers>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    isFunction((value as { lookup?: unknown }).lookup) &&
    isFunction((value as { begin?: unknown }).begin) &&
    isFunction((value as { keep?: unknown }).keep),
  'must be a PreflightAnswers (lookup, begin, keep)',
);
const HttpTransportSchema = z
  .object({ http: ApiSchema, queue: QueueSchema.optional(), preflightAnswers: AnswersSchema.optional() })
  .strict();

const Fn = z.custom<(...args: never[]) => unknown>(isFunction, 'must be a function');
const WaitSchema = z.union([
  z.boolean(),
  z
    .object({
      budgetMs: z.number().int().min(0).max(60_000).default(1_500),
      pollIntervalMs: z.number().int().min(10).max(10_000).default(150),
    })
    .strict(),
]);

const OptionsSchema = z
  .object({
    tenant: Id,
    agent: Id,
    run: Id.optional(),
    principal: Id.nullable().default(null),
    authScope: Id.nullable().default(null),
    transport: z.unknown(),
    waitForIntervention: WaitSchema.default(true),
    preflightUnavailable: z.enum(['throw', 'allow']).default('throw'),
    onPublishError: Fn.optional(),
    isEmpty: Fn.optional(),
    contentMode: z.enum(['binary', 'structured']).default('binary'),
    connectTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    clock: Fn.optional(),
  })
  .strict();

/** Options after validation, with every default applied. */
export interface ResolvedOptions {
  readonly tenant: string;
  readonly agent: string;
  readonly run: string;
  readonly principal: string | null;
  readonly authScope: string | null;
  readonly kafka:
    | (Required<Pick<KafkaEndpoint, 'topic' | 'interventionsTopic' | 'clientId'>> &
        Pick<KafkaEndpoint, 'brokers' | 'kafka'>)
    | null;
  /** The HTTP API, for preflight (and ingest when there is no Kafka). */
  readonly api: ApiEndpoint | null;
  /** HTTP transport: the ordered queue events go through, or null (each event posted and awaited). */
  readonly eventQueue: EventQueue | null;
  /** HTTP transport: reusable preflight answers kept by the caller (the MCP gateway), or null (every call asks). */
  readonly preflightAnswers: PreflightAnswers | null;
  readonly wait: { readonly budgetMs: number; readonly pollIntervalMs: number } | null;
  readonly preflightUnavailable: 'throw' | 'allow';
  readonly onPublishError: ((error: PublishError) => void) | null;
  readonly isEmpty: IsEmpty | null;
  readonly contentMode: 'binary' | 'structured';
  readonly connectTimeoutMs: number;
  readonly clock: () => Date;
}

/** Validates createGovernor's options once; every problem is listed in one GovernorConfigError. */
export function resolveOptions(input: GovernorOptions): ResolvedOptions {
  const parsed = OptionsSchema.safeParse(input);
  if (!parsed.success) throw new GovernorConfigError(problemsOf(parsed.error));
  const options = parsed.data;
  const transport = resolveTransport(options.transport);
  const wait =
    options.waitForIntervention === false
      ? null
      : options.waitForIntervention === true
        ? { budgetMs: 1_500, pollIntervalMs: 150 }
        : options.waitForIntervention;
  return {
    tenant: options.tenant,
    agent: options.agent,
    run: options.run ?? `run-${randomUUID()}`,
    principal: options.principal,
    authScope: options.authScope,
    ...transport,
    wait,
    preflightUnavailable: options.preflightUnavailable,
    onPublishError: (options.onPublishError as ResolvedOptions['onPublishError']) ?? null,
    isEmpty: (options.isEmpty as IsEmpty | undefined) ?? null,
    contentMode: options.contentMode,
    connectTimeoutMs: options.connectTimeoutMs,
    clock: (options.clock as (() => Date) | undefined) ?? (() => new Date()),
  };
}

function resolveTransport(
  transport: unknown,
): Pick<ResolvedOptions, 'kafka' | 'api' | 'eventQueue' | 'preflightAnswers'> {
  const shape = typeof transport === 'object' && transport !== null ? transport : {};
  if ('http' in shape) {
    const parsed = HttpTransportSchema.safeParse(transport);
    if (!parsed.success) throw new GovernorConfigError(problemsOf(parsed.error, 'transport'));
    return {
      kafka: null,
      api: parsed.data.http,
      eventQueue: parsed.data.queue ?? null,
      preflightAnswers: parsed.data.preflightAnswers ?? null,
    };
  }
  if ('kafka' in shape) {
    const parsed = KafkaTransportSchema.safeParse(transport);
    if (!parsed.success) throw new GovernorConfigError(problemsOf(parsed.error, 'transport'));
    return { kafka: parsed.data.kafka, api: parsed.data.api ?? null, eventQueue: null, preflightAnswers: null };
  }
  throw new GovernorConfigError([
    'transport: give { kafka: { brokers | kafka, topic? }, api?: { url, apiKey } } or { http: { url, apiKey } }',
  ]);
}
