import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import {
  createGovernance,
  redactCall,
  type Governance,
  type Decision,
  type DeepReadonly,
  type TokenCircuitConfig,
  type BudgetVerdict,
  ledgerUnits,
} from '@tokencircuit/governance';
import type { ApiDatabase } from '../api-database.port.js';
import { ApiMetrics } from '../api-metrics.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { validated } from '../http/validated.js';
import { API_DATABASE, CLOCK, GOVERNANCE_POLICY, SPEND_LEDGER } from '../tokens.js';
import type { Clock } from '../clock.js';
import { PreflightRequestSchema } from './preflight-request.js';
import type { SpendLedger } from '../spend/spend-ledger.js';
import { budgetReason } from '../spend/budget-reason.js';
import { FleetLoopAdvisor, type PreflightAdvice } from './fleet-loop-advice.js';
import { preflightReuse, type PreflightReuse } from './preflight-reuse.js';

export interface PreflightResponse {
  readonly allow: boolean;
  readonly reason: string;
  readonly decision: Decision | null;
  /** The blocking state's artifact: agent B sees the evidence agent A's failure produced. */
  readonly artifact: DeepReadonly<DiagnosticArtifact> | null;
  /** The spend budgets' verdict (its artifact names the budget, the window and the next action); null when none covers the call. */
  readonly budget: BudgetVerdict | null;
  /** An allowed call other runs of the tenant looped on (no_progress, fleet-wide): advised, not refused; else null. */
  readonly advice: PreflightAdvice | null;
  /** Whether the client may reuse this allow for other calls of the selection while it watches the change feed. */
  readonly reuse: PreflightReuse | null;
}

/** "May this call run now?" answered from the projected state: one SQL round trip plus the pure core. */
@Controller('v1/preflight')
export class PreflightController {
  private readonly governance: Governance;
  private readonly fleetLoops: FleetLoopAdvisor;

  constructor(
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(GOVERNANCE_POLICY) policy: TokenCircuitConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SPEND_LEDGER) private readonly spend: SpendLedger | null,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {
    this.governance = createGovernance(policy);
    this.fleetLoops = new FleetLoopAdvisor(db, policy);
  }

  @Post()
  @HttpCode(200)
  async check(@AuthenticatedTenant() tenant: string, @Body() body: unknown): Promise<PreflightResponse> {
    // The same redaction step events pass at the edge: stored keys hold redacted resource ids and
    // principals, so the question must be asked in the same words to find them.
    const request = validated(PreflightRequestSchema, body);
    const call = redactCall(request.call);
    const stopTimer = this.metrics.preflightLatency.startTimer();
    const states = await this.db.states.candidates(tenant, call);
    const now = this.clock();
    const verdict = this.governance.preflight(states, tenant, call, now.toISOString());
    const artifact =
      verdict.blocking && verdict.decision ? this.governance.artifact(verdict.blocking, verdict.decision) : null;
    // Only a call the failure state allows reserves spend: a refused call consumes nothing.
    const budget =
      verdict.allow && this.spend !== null
        ? await this.spend.reserve(tenant, call, declaredEstimate(request.estimate), now)
        : null;
    const allow = verdict.allow && budget?.level !== 'block';
    const advice = allow ? await this.fleetLoops.adviceFor(tenant, call, now) : null;
    stopTimer();
    this.metrics.preflightAnswers.inc({ allow: String(allow) });
    const reason = allow || budget?.artifact == null ? verdict.reason : budgetReason(budget.artifact);
    const reuse = preflightReuse(tenant, call, { allow, budget, advice }, states, this.db.states.watch !== undefined);
    return { allow, reason, decision: verdict.decision, artifact, budget, advice, reuse };
  }
}

/** The call's own estimate in ledger units (cost in micro-units). */
const declaredEstimate = (estimate: { tokens?: number; cost?: number; calls?: number } | undefined) => ({
  ...(estimate?.tokens !== undefined ? { tokens: estimate.tokens } : {}),
  ...(estimate?.cost !== undefined ? { cost: ledgerUnits('cost', estimate.cost) } : {}),
  ...(estimate?.calls !== undefined ? { calls: estimate.calls } : {}),
});
