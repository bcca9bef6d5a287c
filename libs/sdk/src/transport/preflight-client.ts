import { z } from 'zod';
import {
  BackoffSchema,
  DecisionLevelSchema,
  DiagnosticArtifactSchema,
  NextActionSchema,
  type ToolCall,
} from '@tokencircuit/contracts';
import type { ApiClient } from './api-client.js';

const DecisionSchema = z.object({
  intervene: z.boolean(),
  level: DecisionLevelSchema,
  nextAction: NextActionSchema,
  backoff: BackoffSchema.nullable(),
  safetyJustification: z.string(),
});

/** The spend budgets' verdict on a call (the API's BudgetVerdict; its artifact is kept as sent). */
export const BudgetAnswerSchema = z.object({
  level: z.enum(['ok', 'advise', 'page', 'block']),
  nextAction: z.string().nullable(),
  artifact: z.record(z.string(), z.unknown()).nullable(),
});
export type BudgetAnswer = z.infer<typeof BudgetAnswerSchema>;

/** Fleet-wide loop advice (docs/no-progress.md): other runs of the tenant looped on this call; it may still run. */
export const PreflightAdviceSchema = z.object({
  level: z.literal('advise'),
  failureClass: z.literal('no_progress'),
  nextAction: NextActionSchema,
  reason: z.string(),
  fleetLoop: z.object({
    tool: z.string(),
    callDigest: z.string(),
    runs: z.number().int(),
    firstSeen: z.string(),
    lastSeen: z.string(),
    level: DecisionLevelSchema,
  }),
});
export type PreflightAdvice = z.infer<typeof PreflightAdviceSchema>;

/** What the call expects to consume (cost in the policy's currency units). */
export interface SpendEstimate {
  readonly tokens?: number;
  readonly cost?: number;
  readonly calls?: number;
}

/** POST /v1/preflight's answer (the API's PreflightResponse). */
export const PreflightAnswerSchema = z.object({
  allow: z.boolean(),
  reason: z.string(),
  decision: DecisionSchema.nullable(),
  artifact: DiagnosticArtifactSchema.nullable(),
  /** Absent from servers older than spend budgets. */
  budget: BudgetAnswerSchema.nullable().optional(),
  /** Absent from servers older than fleet-wide loops. */
  advice: PreflightAdviceSchema.nullable().optional(),
  /** An allow that holds for every call of its selection while its coordinates do not change; absent from older servers. */
  reuse: z
    .object({ maxAgeMs: z.number().int().min(0), coordinates: z.array(z.string()) })
    .nullable()
    .optional(),
});
export type PreflightAnswer = z.infer<typeof PreflightAnswerSchema>;

/**
 * A keeper of reusable preflight answers (`reuse`), kept exact by a change feed it watches: asked before each
 * preflight, told each answer with the token `begin` gave when the question left (so an answer read before a
 * change it has since been told of is not kept). Only calls without a spend estimate are asked about.
 */
export interface PreflightAnswers {
  /** An answer for this call without asking the API, or null. */
  lookup(call: ToolCall): PreflightAnswer | null;
  begin(): number;
  keep(since: number, call: ToolCall, answer: PreflightAnswer): void;
}

/** "May this call run now?", answered from the fleet's projected failure state. */
export class PreflightClient {
  constructor(
    private readonly api: ApiClient,
    private readonly answers: PreflightAnswers | null = null,
  ) {}

  async check(call: ToolCall, estimate?: SpendEstimate | null): Promise<PreflightAnswer> {
    if (estimate) return (await this.api.post('/v1/preflight', { call, estimate }, PreflightAnswerSchema)) as PreflightAnswer;
    const answers = this.answers;
    if (answers === null) return (await this.api.post('/v1/preflight', { call }, PreflightAnswerSchema)) as PreflightAnswer;
    const kept = answers.lookup(call);
    if (kept !== null) return kept;
    const since = answers.begin();
    const answer = (await this.api.post('/v1/preflight', { call }, PreflightAnswerSchema)) as PreflightAnswer;
    answers.keep(since, call, answer);
    return answer;
  }
}
