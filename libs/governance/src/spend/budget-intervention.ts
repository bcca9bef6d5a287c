import type { DiagnosticArtifact, EpisodeEventData, InterventionData, ToolCall } from '@tokencircuit/contracts';
import { episodeIdOf } from '../episode/episode-id.js';
import { uuidV5 } from '../artifact/intervention-id.js';
import type { BudgetArtifact } from './budget-verdict.js';
import { BUDGET_CROSSING_NAMESPACE, budgetCrossingId, type BudgetCrossing } from './budget-crossings.js';

/** What crossed the budget: the call whose settle (or refused preflight) took the line across. */
export interface BudgetCause {
  readonly tenant: string;
  readonly call: Pick<ToolCall, 'run' | 'agent' | 'tool' | 'principal' | 'callId'>;
  /** The outcome's event id for a settle; empty for a preflight (no event exists yet). */
  readonly causingEventIds: readonly string[];
  readonly crossedBy: 'settle' | 'preflight';
  readonly issuedAt: string;
}

/**
 * The key a budget line's interventions share: one per tenant, budget, subject and window, so its episode (and
 * the pager's dedup key, the episode id) is per budget and window; a new window is a new incident.
 */
export const budgetKeyId = (tenant: string, c: Pick<BudgetCrossing, 'budgetId' | 'subject' | 'window'>): string =>
  `budget|${tenant}|${c.budgetId}|${c.subject}|${c.window}`;

const words = (c: BudgetCrossing): string =>
  c.level === 'block'
    ? `the ${c.meter} budget ${c.budgetId} of ${c.per} ${c.subject} reached its limit (${c.spent} of ${c.limit}, window ${c.window})`
    : `the ${c.meter} budget ${c.budgetId} of ${c.per} ${c.subject} passed ${Math.round(c.threshold * 100)} % (${c.spent} of ${c.limit}, window ${c.window})`;

/**
 * The intervention a budget crossing becomes: id = the crossing id (so every process that sees the crossing
 * appends the same audit row, once), failure class budget, the evidence in the artifact's `spend_budget`.
 */
export function budgetIntervention(
  crossing: BudgetCrossing,
  cause: BudgetCause,
  policyVersion: string,
  currency: string,
): InterventionData {
  const keyId = budgetKeyId(cause.tenant, crossing);
  const nextAction = crossing.level === 'block' ? 'ask_for_budget_increase' : 'summarise_and_stop';
  const artifact: DiagnosticArtifact = {
    equivalence_key: {
      tool_name: cause.call.tool,
      resource_class: null,
      auth_scope: null,
      error_class: 'budget',
      side_effect_boundary: false,
    },
    key_id: keyId,
    scope: crossing.per === 'run' ? 'run' : 'fleet',
    tenant: cause.tenant,
    run: cause.call.run,
    principal: cause.call.principal,
    resource_id: null,
    failure_class: 'budget',
    budget: crossing.limit,
    budget_exhausted: crossing.level === 'block',
    retry_count: 0,
    sample_receipts: [],
    safety_justification: `${words(crossing)}; next: ${crossing.nextAction}`,
    next_allowed_action: nextAction,
    verifier_required: null,
    verifier_status: 'not_required',
    side_effect_evidence: [],
    classification_reason: `spend ledger: ${cause.crossedBy} crossed ${crossing.threshold === 1 ? 'the hard limit' : `the ${crossing.threshold} threshold`}`,
    policy_version: policyVersion,
    state_version: 0,
    causing_event_ids: [...cause.causingEventIds],
    spend_budget: {
      budget_id: crossing.budgetId,
      per: crossing.per,
      subject: crossing.subject,
      meter: crossing.meter as 'tokens' | 'cost' | 'calls',
      window: crossing.window,
      window_kind: crossing.windowKind as 'run' | 'rolling' | 'day' | 'month',
      limit: crossing.limit,
      spent: crossing.spent,
      reserved: crossing.reserved,
      threshold: crossing.threshold,
      level: crossing.level,
      next_action: crossing.nextAction,
      currency: crossing.meter === 'cost' ? currency : null,
      crossed_by: cause.crossedBy,
    },
  };
  return {
    interventionId: crossing.crossingId,
    tenant: cause.tenant,
    run: cause.call.run,
    agent: cause.call.agent,
    keyId,
    level: crossing.level,
    nextAction,
    backoff: null,
    artifact,
    policyVersion,
    stateVersion: 0,
    causingEventIds: [...cause.causingEventIds],
    issuedAt: cause.issuedAt,
  };
}

/**
 * The episode step a budget intervention is: the line's first threshold triggers its episode (episode 1 of the
 * line's key: its id is the pager's dedup key per budget and window), a later one escalates it. The event id
 * is derived from the crossing id, so recording or publishing it again is recognised.
 */
export function budgetEpisodeStep(
  intervention: InterventionData,
  crossing: BudgetCrossing,
  previousLevel: 'advise' | 'page' | 'block' | null,
): EpisodeEventData {
  const triggered = previousLevel === null;
  return {
    eventId: uuidV5(`${crossing.crossingId}/episode`, BUDGET_CROSSING_NAMESPACE),
    transition: triggered ? 'triggered' : 'escalated',
    episodeId: episodeIdOf(intervention.keyId, 1),
    episode: 1,
    tenant: intervention.tenant,
    keyId: intervention.keyId,
    scope: intervention.artifact.scope,
    run: intervention.run,
    agent: intervention.agent,
    principal: intervention.artifact.principal,
    tool: intervention.artifact.equivalence_key.tool_name,
    failureClass: 'budget',
    level: intervention.level,
    previousLevel,
    interventionId: intervention.interventionId,
    summary: intervention.artifact.safety_justification,
    actor: null,
    artifact: intervention.artifact,
    stateVersion: 0,
    openedAt: intervention.issuedAt,
    occurredAt: intervention.issuedAt,
  };
}

/** The level of the line's step below `crossing` in the policy's order (null: this is the line's first step). */
export function previousStepLevel(
  crossing: BudgetCrossing,
  thresholds: readonly { readonly at: number; readonly level: 'advise' | 'page' }[],
): 'advise' | 'page' | null {
  const below = thresholds.filter((t) => t.at < crossing.threshold);
  return below.length === 0 ? null : below[below.length - 1]!.level;
}

/**
 * The hard-limit crossing a refused preflight shows (its verdict's blocking line): the same crossing id as the
 * settle that reaches the limit, so the line's block intervention is appended once whichever sees it first.
 */
export const crossingOfBlock = (tenant: string, a: BudgetArtifact): BudgetCrossing => ({
  crossingId: budgetCrossingId(tenant, a.budget_id, a.subject, a.window, 1),
  budgetId: a.budget_id,
  per: a.per as BudgetCrossing['per'],
  subject: a.subject,
  meter: a.meter,
  window: a.window,
  windowKind: a.window_kind,
  limit: a.limit,
  spent: a.carried + a.spent,
  reserved: a.reserved,
  threshold: 1,
  level: 'block',
  nextAction: a.next_action ?? 'ask for a budget increase',
});
