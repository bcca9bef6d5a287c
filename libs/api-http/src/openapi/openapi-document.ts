import { z } from 'zod';
import { DiagnosticArtifactSchema, ToolCallSchema } from '@tokencircuit/contracts';
import { AuditQuerySchema } from '../audit/audit-query.js';
import { StateQuerySchema } from '../state/state-query.js';
import { VerifyQuerySchema } from '../audit/verify-query.js';
import * as S from './api-schemas.js';
import * as X from './api-examples.js';
import { dashboardPaths } from './dashboard-paths.js';
import { otlpPaths } from './otlp-paths.js';

type JsonObject = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
/** A JSON body with named examples (Swagger UI otherwise invents values from the schema's bounds). */
const jsonWith = (schema: JsonObject, examples: Record<string, { summary: string; value: unknown }>) => ({
  'application/json': { schema, examples },
});

/** Request bodies are described as clients send them (defaults optional), responses as served. */
const REQUESTS: Record<string, z.ZodType> = {
  AgentEvent: S.AgentEventSchema,
  ToolCall: ToolCallSchema,
  IngestBatch: S.IngestBatchSchema,
  PreflightRequest: S.PreflightRequestSchema,
  ResolutionRequest: S.ResolutionRequestSchema,
};
const RESPONSES: Record<string, z.ZodType> = {
  Accepted: S.AcceptedSchema,
  ResolutionAccepted: S.ResolutionAcceptedSchema,
  Error: S.ErrorSchema,
  Decision: S.DecisionSchema,
  DiagnosticArtifact: DiagnosticArtifactSchema,
  PreflightResponse: S.PreflightResponseSchema,
  InterventionRecord: S.InterventionRecordSchema,
  InterventionPage: S.InterventionPageSchema,
  InterventionDetail: S.InterventionDetailSchema,
  FailureStateRecord: S.FailureStateRecordSchema,
  FailureStateSummary: S.FailureStateSummarySchema,
  FailureStatePage: S.FailureStatePageSchema,
  ChainReport: S.ChainReportSchema,
  PagerDutyWebhookAnswer: S.PagerDutyWebhookAnswerSchema,
};

function componentSchemas(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: generated } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  // Components are embedded in the document: their own $schema/$id would only re-anchor the refs.
  return Object.fromEntries(
    Object.entries(generated).map(([id, { $schema: _schema, $id: _id, ...rest }]) => [id, rest]),
  );
}

function queryParameters(schema: z.ZodObject): JsonObject[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const {
      $schema: _s,
      description,
      ...fieldSchema
    } = z.toJSONSchema(field as z.ZodType, { io: 'output' }) as JsonObject;
    return { name, in: 'query', required: false, ...(description ? { description } : {}), schema: fieldSchema };
  });
}

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: ERROR_TEXT[status]!, ...(ERROR_HEADERS[status] ?? {}), content: json('Error') },
    ]),
  );

const ERROR_HEADERS: Record<number, JsonObject> = {
  429: {
    headers: {
      'retry-after': {
        description: 'Whole seconds to wait before the quota admits the same request.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: `field` names what is wrong (and `index` the event in a batch).',
  401: 'No API key, or an unknown one.',
  403: 'The body names another tenant than the API key’s (`tenant_mismatch`), or a signed-in change lacks its CSRF proof (`csrf_failed`).',
  404: 'Not found, or another tenant’s (indistinguishable on purpose).',
  409:
    'An event reuses a stored event’s id within its source with another body (`conflict`; CloudEvents: id is ' +
    'unique within source): `index` names it in a batch, `storedDigest` the stored event. Nothing was accepted.',
  413: 'The body exceeds the size cap, or one event exceeds 64 KiB.',
  415: 'The body is not JSON.',
  429:
    'The tenant spent its quota (`rate_limited`; `quota` names it, `retryAfterSeconds` repeats Retry-After). ' +
    'Nothing was accepted; retry after Retry-After seconds. Quotas are per tenant: API_PREFLIGHT_PER_SECOND / ' +
    'API_PREFLIGHT_BURST (requests) and API_INGEST_EVENTS_PER_SECOND / API_INGEST_BURST_EVENTS (events).',
  503: 'The broker or database did not answer; nothing was accepted, retry the same request.',
};

const keyId = {
  name: 'keyId',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'A failure_state key id (URL-encoded).',
};

/** The OpenAPI 3.1 document of the API, generated from the same zod schemas the code validates with. */
export function buildOpenApiDocument(): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'TokenCircuit Fleet API',
      version: '1.0.0',
      description:
        'Ingest agent events over HTTP, ask before a tool call runs (preflight), resolve failure states, and read the ' +
        'audit trail. Every route under /v1 needs a tenant API key (or the dashboard’s session cookie); the tenant ' +
        'always comes from the key.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { apiKey: [] }, { dashboardSession: [] }],
    paths: {
      '/v1/events': {
        post: {
          operationId: 'ingestEvents',
          summary: 'Publish one agent event or a batch of up to 500',
          description: 'Answers 202 only after the broker acknowledged every event (all in-sync replicas).',
          requestBody: {
            required: true,
            content: jsonWith(
              { oneOf: [ref('AgentEvent'), ref('IngestBatch')] },
              {
                outcome: {
                  summary: 'One event: Postgres refused a query with 42501 (RFC test 1)',
                  value: X.EXAMPLE_OUTCOME_EVENT,
                },
                batch: { summary: 'A batch of events', value: { events: [X.EXAMPLE_OUTCOME_EVENT] } },
              },
            ),
          },
          responses: {
            '202': {
              description: 'Accepted by the broker.',
              content: jsonWith(ref('Accepted'), { accepted: { summary: 'Acknowledged', value: X.EXAMPLE_ACCEPTED } }),
            },
            ...errors(400, 401, 403, 409, 413, 415, 429, 503),
          },
        },
      },
      '/v1/preflight': {
        post: {
          operationId: 'preflight',
          summary: 'May this tool call run now?',
          requestBody: {
            required: true,
            content: jsonWith(ref('PreflightRequest'), {
              deny: {
                summary: 'Another agent acting as a principal blocked fleet-wide',
                value: { call: X.EXAMPLE_DENIED_CALL },
              },
              allow: { summary: 'A principal with no failure state', value: { call: X.EXAMPLE_ALLOWED_CALL } },
            }),
          },
          responses: {
            '200': {
              description: 'The verdict, with the blocking state’s artifact.',
              content: jsonWith(ref('PreflightResponse'), {
                deny: {
                  summary: 'Denied: the principal is blocked fleet-wide on the resource',
                  value: X.EXAMPLE_PREFLIGHT_DENIED,
                },
                allow: { summary: 'Allowed: nothing known at these coordinates', value: X.EXAMPLE_PREFLIGHT_ALLOWED },
              }),
            },
            ...errors(400, 401, 415, 429),
          },
        },
      },
      '/v1/preflight/changes': {
        get: {
          operationId: 'followPreflightChanges',
          summary:
            'Server-sent events: `watching` (the coordinate hashes), then `changed` whenever failure_state changes at ' +
            'the run’s or the principal’s coordinates; `lost` and the end of the stream when this process stops ' +
            'receiving the changes. For clients that reuse preflight answers (see `reuse`).',
          parameters: [
            { name: 'run', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'principal', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'text/event-stream; a comment line every second while nothing changes.',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...errors(400, 401, 404, 429, 503),
          },
        },
      },
      '/v1/resolutions': {
        post: {
          operationId: 'resolve',
          summary: 'Record an operator resolution of a failure state',
          description:
            'A resolution states what the operator established, and means it per class (docs/cli.md, "What each ' +
            'resolution means"): every one that applies ends the episode. On an uncertain write, effect_confirmed ' +
            '(or resource_confirmed) closes the intent as done, so preflight refuses a re-send; effect_absent allows ' +
            'exactly one re-send. A kind that does not apply to the key (reset while a write effect is unknown, ' +
            'auth_granted on anything but a permission key, …) is a 400 not_applicable naming the kinds that do.',
          requestBody: { required: true, content: json('ResolutionRequest') },
          responses: {
            '202': {
              description: 'The operator.resolution event was acknowledged by the broker.',
              content: json('ResolutionAccepted'),
            },
            ...errors(400, 401, 404, 415, 429, 503),
          },
        },
      },
      '/v1/audit/interventions': {
        get: {
          operationId: 'listInterventions',
          summary: 'The tenant’s interventions, filtered and paged',
          parameters: queryParameters(AuditQuerySchema),
          responses: {
            '200': {
              description:
                'A page (JSON), or CSV (RFC 4180, header row) with the next cursor in the x-next-cursor header.',
              headers: {
                'x-next-cursor': { description: 'CSV only: the cursor of the next page.', schema: { type: 'string' } },
              },
              content: {
                ...jsonWith(ref('InterventionPage'), {
                  page: { summary: 'The last page: one block', value: X.EXAMPLE_INTERVENTION_PAGE },
                }),
                'text/csv': { schema: { type: 'string' } },
              },
            },
            ...errors(400, 401, 429),
          },
        },
      },
      '/v1/audit/interventions/{id}': {
        get: {
          operationId: 'getIntervention',
          summary: 'One intervention with its artifact and causing events',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'Found.', content: json('InterventionDetail') },
            ...errors(401, 404, 429),
          },
        },
      },
      '/v1/audit/verify': {
        get: {
          operationId: 'verifyAuditChain',
          summary: 'Verify one page of the tenant’s hash chain (follow `next` to its head)',
          description:
            'At most `limit` rows after `cursor` (from the first row without one), so one request’s cost is ' +
            'bounded; it is charged to the tenant’s read quota (1 + limit/10 units; 429 when spent). With an ' +
            'audit anchor’s positions (anchorSeq, eventsThrough) the report also gives what the trail ' +
            'holds there now; `tokencircuit verify --anchor` compares it with the signed anchor (docs/audit.md).',
          parameters: queryParameters(VerifyQuerySchema),
          responses: {
            '200': { description: 'The verification result and the chain head.', content: json('ChainReport') },
            ...errors(400, 401, 429),
          },
        },
      },
      '/v1/state': {
        get: {
          operationId: 'listFailureStates',
          summary: 'The tenant’s failure states, filtered and paged, most recently changed first',
          description:
            'blocked=true lists what stops agents now. Pages follow (updatedAt, keyId) descending: a key that ' +
            'changes while you page moves to the front and is not repeated on later pages.',
          parameters: queryParameters(StateQuerySchema),
          responses: {
            '200': {
              description: 'A page.',
              content: jsonWith(ref('FailureStatePage'), {
                blocked: { summary: '?blocked=true: a principal blocked fleet-wide', value: X.EXAMPLE_STATE_PAGE },
              }),
            },
            ...errors(400, 401, 429),
          },
        },
      },
      '/v1/state/{keyId}': {
        get: {
          operationId: 'getFailureState',
          summary: 'The current failure state of one key',
          parameters: [keyId],
          responses: {
            '200': { description: 'Found.', content: json('FailureStateRecord') },
            ...errors(401, 404, 429),
          },
        },
      },
      '/v1/integrations/pagerduty': {
        post: {
          operationId: 'pagerDutyWebhook',
          summary:
            'PagerDuty webhook v3: an incident acknowledged or resolved there acknowledges or resolves its key here',
          description:
            'Point a PagerDuty webhook subscription (v3, events incident.acknowledged and incident.resolved) here. ' +
            'No API key: the tenant is the one whose secret in TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS signed the raw ' +
            'body (X-PagerDuty-Signature: v1=<hex HMAC-SHA256>, several comma-separated while a secret rotates). ' +
            'The incident key names the episode (the notifier opens incidents with dedup_key = episode id); only an ' +
            'episode of that tenant that is still open is acted on. A redelivery makes the same event id.',
          security: [{ pagerDutySignature: [] }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['event'] } } },
          },
          responses: {
            '200': {
              description: 'Nothing to do (another event type, not our incident, already answered).',
              content: json('PagerDutyWebhookAnswer'),
            },
            '202': {
              description: 'The operator.resolution event was acknowledged by the broker.',
              content: json('PagerDutyWebhookAnswer'),
            },
            '400': { description: ERROR_TEXT[400]!, content: json('Error') },
            '401': { description: 'No configured webhook secret signed this body.', content: json('Error') },
            '404': { description: 'PagerDuty webhooks are not enabled on this API.', content: json('Error') },
            ...errors(413, 415, 429, 503),
          },
        },
      },
      ...dashboardPaths(errors),
      ...otlpPaths(errors),
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <tenant API key>' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        pagerDutySignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-PagerDuty-Signature',
          description: 'v1=<hex HMAC-SHA256 of the raw body with the tenant’s PagerDuty webhook secret>',
        },
        dashboardSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'tc_session',
          description: 'The dashboard session (HttpOnly, SameSite=Strict); changes also need the x-csrf-token header.',
        },
      },
      schemas: { ...componentSchemas(REQUESTS, 'input'), ...componentSchemas(RESPONSES, 'output') },
    },
  };
}

/** The document as checked in at docs/openapi.json, formatted by the repository's Prettier settings. */
export async function renderOpenApiDocument(file: string): Promise<string> {
  const { format, resolveConfig } = await import('prettier');
  const options = (await resolveConfig(file)) ?? {};
  return format(JSON.stringify(buildOpenApiDocument()), { ...options, filepath: file });
}
