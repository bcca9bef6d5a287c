import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import {
  createGovernance,
  redactCall,
  type Governance,
  type Decision,
  type DeepReadonly,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
import type { ApiDatabase } from '../api-database.port.js';
import { ApiMetrics } from '../api-metrics.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { validated } from '../http/validated.js';
import { API_DATABASE, CLOCK, GOVERNANCE_POLICY } from '../tokens.js';
import type { Clock } from '../clock.js';
import { PreflightRequestSchema } from './preflight-request.js';

export interface PreflightResponse {
  readonly allow: boolean;
  readonly reason: string;
  readonly decision: Decision | null;
  /** The blocking state's artifact: agent B sees the evidence agent A's failure produced. */
  readonly artifact: DeepReadonly<DiagnosticArtifact> | null;
}

/** "May this call run now?" answered from the projected state: one SQL round trip plus the pure core. */
@Controller('v1/preflight')
export class PreflightController {
  private readonly governance: Governance;

  constructor(
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(GOVERNANCE_POLICY) policy: TokenCircuitConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {
    this.governance = createGovernance(policy);
  }

  @Post()
  @HttpCode(200)
  async check(@AuthenticatedTenant() tenant: string, @Body() body: unknown): Promise<PreflightResponse> {
    // The same redaction step events pass at the edge: stored keys hold redacted resource ids and
    // principals, so the question must be asked in the same words to find them.
    const call = redactCall(validated(PreflightRequestSchema, body).call);
    const stopTimer = this.metrics.preflightLatency.startTimer();
    const states = await this.db.states.candidates(tenant, call);
    const verdict = this.governance.preflight(states, tenant, call, this.clock().toISOString());
    const artifact =
      verdict.blocking && verdict.decision ? this.governance.artifact(verdict.blocking, verdict.decision) : null;
    stopTimer();
    this.metrics.preflightAnswers.inc({ allow: String(verdict.allow) });
    return { allow: verdict.allow, reason: verdict.reason, decision: verdict.decision, artifact };
  }
}
