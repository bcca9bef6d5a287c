import { z } from 'zod';
import {
  AgentEventSchema,
  BackoffSchema,
  DecisionLevelSchema,
  DiagnosticArtifactSchema,
  FailureClassSchema,
  NextActionSchema,
} from '@tokencircuit/contracts';
import { MAX_BATCH_EVENTS } from '../ingest/ingest-request.js';
import { PreflightRequestSchema } from '../preflight/preflight-request.js';
import { ResolutionRequestSchema } from '../resolutions/resolution-request.js';
import { FAILURE_STATUSES } from '../state/state-query.js';

/**
 * The API's request and response bodies as zod schemas: the OpenAPI document is generated from them,
 * and the e2e specs parse real responses with them, so the document cannot drift from what is served.
 */
export const IngestBatchSchema = z.object({ events: z.array(AgentEventSchema).min(1).max(MAX_BATCH_EVENTS) }).strict();

export const AcceptedSchema = z.object({
  accepted: z.array(z.string()).describe('Ids of the events the broker acknowledged, in request order.'),
});

export const ResolutionAcceptedSchema = AcceptedSchema.extend({
  id: z.string().describe('Id of the operator.resolution event.'),
});

/** The answer to a PagerDuty webhook delivery: the resolution it made (202), or why it made none (200). */
export const PagerDutyWebhookAnswerSchema = z.discriminatedUnion('outcome', [
  AcceptedSchema.extend({
    outcome: z.literal('resolution'),
    id: z.string().describe('Id of the operator.resolution event (the same for a redelivery of the same event).'),
    keyId: z.string().describe('The failure_state key of the episode.'),
    episodeId: z.string().describe('The episode: the incident key the notifier opened the incident with.'),
    resolution: z.enum(['acknowledged', 'reset']),
  }),
  z.object({
    outcome: z.literal('ignored'),
    reason: z.string().describe('Why nothing was done: another event type, not our incident, already answered, …'),
  }),
]);
export type PagerDutyWebhookAnswer = z.infer<typeof PagerDutyWebhookAnswerSchema>;

export const ErrorSchema = z.object({
  error: z.string().describe('Stable machine-readable code, e.g. invalid_field, tenant_mismatch, payload_too_large.'),
  message: z.string(),
  field: z.string().optional().describe('The offending field, relative to the event for batches.'),
  index: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Position of the offending event in a batch (null for a single event).'),
  quota: z
    .enum(['ingest', 'preflight', 'read', 'pagerduty_webhook', 'dashboard_sign_in'])
    .optional()
    .describe('429 only: the quota the tenant spent.'),
  retryAfterSeconds: z.number().int().min(1).optional().describe('429 only: the Retry-After header, repeated.'),
  storedDigest: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .optional()
    .describe('409 only: the digest of the stored event whose id and source the request reused with another body.'),
});

export const DecisionSchema = z.object({
  intervene: z.boolean(),
  level: DecisionLevelSchema,
  nextAction: NextActionSchema,
  backoff: BackoffSchema.nullable(),
  safetyJustification: z.string(),
});

const BudgetLevelSchema = z.enum(['ok', 'advise', 'page', 'block']);

/** One budget line's evidence (libs/governance BudgetArtifact): amounts in ledger units (cost in micro-units). */
export const BudgetArtifactSchema = z.object({
  budget_id: z.string(),
  per: z.enum(['run', 'agent', 'principal', 'tenant']),
  subject: z.string(),
  meter: z.enum(['tokens', 'cost', 'calls']),
  window: z.string().describe('"run", an hour bucket "2026-01-31T23", a local day "2026-01-31" or month "2026-01".'),
  window_kind: z.enum(['run', 'rolling', 'day', 'month']),
  limit: z.number().int(),
  spent: z.number().int(),
  reserved: z.number().int(),
  carried: z.number().int().describe('Spend of a rolling window’s earlier hour buckets.'),
  estimate: z.number().int(),
  used_ratio: z.number(),
  level: BudgetLevelSchema,
  threshold: z.number().nullable(),
  crossed: z.boolean(),
  next_action: z.string().nullable(),
  currency: z.string().nullable(),
});

export const BudgetVerdictSchema = z.object({
  level: BudgetLevelSchema,
  nextAction: z.string().nullable(),
  artifact: BudgetArtifactSchema.nullable().describe('The most severe line; null when every line is ok.'),
  lines: z.array(BudgetArtifactSchema),
});

export const PreflightResponseSchema = z.object({
  allow: z.boolean(),
  reason: z
    .string()
    .describe(
      'One line: when denied, what happened and where (e.g. "principal svc-reporting is blocked fleet-wide on ' +
        'sql_namespace finance.salaries since …, after 2 permission failures of sql_query …"), ending with the ' +
        'blocking key as [key …]; when allowed, why (e.g. "no failure state at these coordinates").',
    ),
  decision: DecisionSchema.nullable().describe('The blocking state’s decision; null when allowed.'),
  artifact: DiagnosticArtifactSchema.nullable().describe('The blocking state’s DiagnosticArtifact; null when allowed.'),
  budget: BudgetVerdictSchema.nullable().describe(
    'The spend budgets’ verdict: advise or page near a limit (the call may run), block at the hard limit (allow ' +
      'false, reason names the budget); null when no budget covers the call or the failure state refused it.',
  ),
  advice: z
    .object({
      level: z.literal('advise'),
      failureClass: z.literal('no_progress'),
      nextAction: z.literal('change_approach'),
      reason: z.string(),
      fleetLoop: z.object({
        tool: z.string(),
        callDigest: z.string().describe('The argument fingerprint (volatile fields left out) the runs looped on.'),
        runs: z
          .number()
          .int()
          .describe('Distinct runs of the tenant that looped on it within noProgress.fleet.windowHours.'),
        firstSeen: z.string(),
        lastSeen: z.string(),
        level: DecisionLevelSchema.describe('The worst level any of those runs reached.'),
      }),
    })
    .nullable()
    .describe(
      'Fleet-wide loop advice (docs/no-progress.md): other runs of the tenant looped on this tool and these ' +
        'arguments; the call may run. null when none did or the call is refused.',
    ),
  reuse: z
    .object({
      maxAgeMs: z.number().int().describe('How long the answer may be reused at most.'),
      coordinates: z
        .array(z.string())
        .describe('The coordinate hashes the answer was read at: GET /v1/preflight/changes must be watching these.'),
    })
    .nullable()
    .describe(
      'An allow that holds for every call of the same run, tool, principal and resource id (no failure state, ' +
        'budget or fleet loop advice there): a client watching GET /v1/preflight/changes may answer such calls ' +
        'itself until a `changed` event, the end of that stream, or maxAgeMs. null otherwise.',
    ),
});

const Nullable = z.string().nullable();

export const InterventionRecordSchema = z.object({
  seq: z.number().int().positive().describe('Position in the audit trail (global order; chain order within a tenant).'),
  id: z.string(),
  tenant: z.string(),
  run: Nullable,
  agent: Nullable,
  principal: Nullable,
  level: DecisionLevelSchema,
  failureClass: FailureClassSchema,
  nextAction: NextActionSchema,
  keyId: z.string(),
  toolName: z.string(),
  resourceClass: Nullable,
  authScope: Nullable,
  resourceId: Nullable,
  safetyJustification: Nullable,
  policyVersion: z.string(),
  stateVersion: z.number().int().nonnegative(),
  causingEventIds: z.array(z.string()),
  issuedAt: z.iso.datetime({ offset: true }),
  prevHash: Nullable.describe('Hash of the tenant’s previous row; null for its first.'),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

export const InterventionPageSchema = z.object({
  items: z.array(InterventionRecordSchema),
  nextCursor: Nullable.describe('Pass as cursor to get the next page; null on the last page.'),
});

export const CausingEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  run: Nullable,
  agent: Nullable,
  occurredAt: z.iso.datetime({ offset: true }),
  receivedAt: z.iso.datetime({ offset: true }),
  cloudEvent: z.record(z.string(), z.unknown()),
  kafka: z.object({ topic: z.string(), partition: z.number().int(), offset: z.string() }).nullable(),
});

export const InterventionDetailSchema = InterventionRecordSchema.extend({
  artifact: DiagnosticArtifactSchema,
  causingEvents: z.array(CausingEventSchema),
});

export const FailureStateRecordSchema = z.object({
  keyId: z.string(),
  tenant: z.string(),
  scope: z.enum(['fleet', 'run']),
  status: z.string(),
  version: z.number().int().nonnegative(),
  updatedAt: z.iso.datetime({ offset: true }),
  state: z
    .record(z.string(), z.unknown())
    .describe('The complete FailureState the core folded (libs/governance model).'),
});

export const FailureStateSummarySchema = z.object({
  keyId: z.string(),
  tenant: z.string(),
  scope: z.enum(['fleet', 'run']),
  status: z.enum(FAILURE_STATUSES),
  failureClass: FailureClassSchema,
  toolName: z.string(),
  principal: Nullable,
  run: Nullable,
  resourceClass: Nullable,
  resourceId: Nullable,
  authScope: Nullable,
  budget: z.number().int().nonnegative(),
  retryCount: z.number().int().nonnegative(),
  verifierStatus: z.string(),
  episode: z.number().int().positive(),
  openedAt: z.iso.datetime({ offset: true }).describe('When this failure episode began.'),
  violations: z.number().int().nonnegative().describe('Attempts that broke the key’s rule in this episode.'),
  lastReceipt: Nullable.describe('The newest error receipt, redacted.'),
  version: z.number().int().nonnegative(),
  updatedAt: z.iso.datetime({ offset: true }),
});

export const FailureStatePageSchema = z.object({
  items: z.array(FailureStateSummarySchema),
  nextCursor: Nullable.describe('Pass as cursor to get the next page; null on the last page.'),
});

export const ChainReportSchema = z.object({
  tenant: z.string(),
  result: z.union([
    z.object({ ok: z.literal(true), checked: z.number().int().nonnegative() }),
    z.object({
      ok: z.literal(false),
      checked: z.number().int().nonnegative(),
      firstBrokenSeq: z.number().int(),
      reason: z.string(),
    }),
  ]),
  next: z
    .string()
    .nullable()
    .describe('Pass as `cursor` to verify the next page; null when this page reached the head or found a break.'),
  head: z
    .object({ seq: z.number().int(), hash: z.string() })
    .nullable()
    .describe('The newest row; keep its hash outside the database to detect a truncated tail.'),
  anchorFacts: z
    .object({
      chainAtAnchor: z
        .object({ seq: z.number().int(), hash: z.string() })
        .nullable()
        .optional()
        .describe('The tenant’s intervention at anchorSeq now (null: there is none).'),
      events: z
        .object({
          through: z.number().int().nonnegative(),
          count: z.number().int().nonnegative(),
          digest: z.string().nullable(),
        })
        .optional()
        .describe('The tenant’s agent events through eventsThrough, recomputed: count and rolling sha256 digest.'),
    })
    .optional()
    .describe(
      'Only with anchorSeq or eventsThrough: what the trail holds at an audit anchor’s positions (docs/audit.md).',
    ),
});

export { AgentEventSchema, PreflightRequestSchema, ResolutionRequestSchema };
