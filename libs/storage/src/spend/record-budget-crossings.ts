import {
  budgetEpisodeStep,
  budgetIntervention,
  previousStepLevel,
  tenantSpend,
  type BudgetCause,
  type BudgetCrossing,
  type SpendPolicy,
} from '@tokencircuit/governance';
import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';
import { appendInterventions } from '../append-interventions.js';
import { appendEpisodeEvents } from '../episodes/append-episode-events.js';
import { interventionRowOf } from '../new-intervention.js';
import type { SqlSession } from '../sql-database.js';
import { insertBudgetPublications } from './budget-publications.js';

export interface RecordedCrossing {
  readonly intervention: InterventionData;
  readonly step: EpisodeEventData;
}

/**
 * Records what a settle (or a refused preflight) crossed, in the caller's transaction: each crossing's budget
 * intervention is appended to the tenant's hash chain (appendInterventions: serialised per tenant, idempotent
 * on the id, which is the crossing id) and, when it was new, its episode step is recorded for the notifier.
 * Two transactions that see the same crossing append one row: the second finds the id. Returns only what
 * this call appended. The API's settle and preflight call it; the projector's settle calls it the same way.
 * Each appended intervention is also recorded as a pending budget publication (the same transaction): the
 * decision service's BudgetPublicationRelay publishes it, so a crossing reaches the topics even when nobody
 * announces it after the commit (the projector's settle, an API publish that failed).
 */
export async function recordBudgetCrossings(
  session: SqlSession,
  policy: SpendPolicy,
  policyVersion: string,
  crossings: readonly BudgetCrossing[],
  cause: BudgetCause,
): Promise<RecordedCrossing[]> {
  if (crossings.length === 0) return [];
  const budgets = tenantSpend(policy, cause.tenant).budgets;
  const interventions = crossings.map((c) => budgetIntervention(c, cause, policyVersion, policy.currency));
  const results = await appendInterventions(session, interventions.map(interventionRowOf));
  const recorded: RecordedCrossing[] = [];
  crossings.forEach((crossing, i) => {
    if (!results[i]!.appended) return;
    const thresholds = budgets.find((b) => b.id === crossing.budgetId)?.thresholds ?? [];
    const intervention = interventions[i]!;
    recorded.push({
      intervention,
      step: budgetEpisodeStep(intervention, crossing, previousStepLevel(crossing, thresholds)),
    });
  });
  await appendEpisodeEvents(
    session,
    recorded.map((r) => r.step),
  );
  // The outbox of what was appended: the decision service publishes it unless a fast path marks it published.
  await insertBudgetPublications(
    session,
    recorded.map((r) => ({
      interventionId: r.intervention.interventionId,
      tenant: r.intervention.tenant,
      episodeEventId: r.step.eventId,
    })),
  );
  return recorded;
}

/** Settled spend of these lines as stored now (no lock: a lower bound the settle's own read refines). */
export async function readSettledSpend(
  session: SqlSession,
  tenant: string,
  refs: readonly {
    readonly key: string;
    readonly budgetId: string;
    readonly subject: string;
    readonly window: string;
  }[],
): Promise<Map<string, number>> {
  const { rows } = await session.query<{ budget_id: string; subject: string; window_start: string; spent: string }>(
    `SELECT l.budget_id, l.subject, l.window_start, l.spent
       FROM spend_lines l
       JOIN unnest($2::text[], $3::text[], $4::text[]) AS v(b, s, w)
         ON l.budget_id = v.b AND l.subject = v.s AND l.window_start = v.w
      WHERE l.tenant = $1`,
    [tenant, refs.map((r) => r.budgetId), refs.map((r) => r.subject), refs.map((r) => r.window)],
  );
  const spent = new Map<string, number>();
  for (const ref of refs) {
    const row = rows.find(
      (r) => r.budget_id === ref.budgetId && r.subject === ref.subject && r.window_start === ref.window,
    );
    if (row) spent.set(ref.key, Number(row.spent));
  }
  return spent;
}
