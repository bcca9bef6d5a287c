import type { Backoff, DecisionLevel, DiagnosticArtifact, InterventionData, NextAction } from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { stopMessage } from './stop-message.js';

/** The backend's verdict on a call, in the shape the preflight API answers with. */
export interface GovernanceDecision {
  readonly intervene: boolean;
  readonly level: DecisionLevel;
  readonly nextAction: NextAction;
  readonly backoff: Backoff | null;
  readonly safetyJustification: string;
}

/** Where the stop came from: the preflight API before the call, or an intervention after its failure. */
export type StopSource = 'preflight' | 'intervention';

interface TokenCircuitErrorInit {
  readonly source: StopSource;
  readonly reason: string;
  readonly decision: GovernanceDecision;
  /** The level of the stop itself (see stopLevel); the decision's own level stays in `decision`. */
  readonly level: DecisionLevel;
  readonly artifact: DiagnosticArtifact;
  readonly call: CallHandle;
  readonly intervention?: InterventionData | null;
  readonly cause?: unknown;
}

/**
 * TokenCircuit stopped a tool call. `artifact` is the RFC's DiagnosticArtifact (the evidence: raw key
 * fields, class, budget, receipts, why); `nextAction` is what is allowed instead. When the stop came
 * after the tool failed, `cause` is the tool's own error.
 */
export class TokenCircuitError extends Error {
  override readonly name = 'TokenCircuitError';
  readonly source: StopSource;
  readonly reason: string;
  readonly decision: GovernanceDecision;
  readonly artifact: DiagnosticArtifact;
  readonly nextAction: NextAction;
  /**
   * How loud this stop is: an intervention's level as the audit trail holds it, or `block` for a
   * preflight refusal (see stopLevel). `page` means a human was paged for the failure this call met.
   */
  readonly level: DecisionLevel;
  readonly call: CallHandle;
  /** The intervention event that stopped the call (source "intervention"), else null. */
  readonly intervention: InterventionData | null;

  constructor(init: TokenCircuitErrorInit) {
    super(
      `TokenCircuit ${init.level === 'page' ? 'paged a human and stopped' : 'stopped'} ${init.call.tool}: ` +
        `${init.decision.nextAction} (${init.artifact.failure_class}) — ${init.reason}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.source = init.source;
    this.reason = init.reason;
    this.decision = init.decision;
    this.artifact = init.artifact;
    this.nextAction = init.decision.nextAction;
    this.level = init.level;
    this.call = init.call;
    this.intervention = init.intervention ?? null;
  }

  /**
   * One or two sentences for the model: what was stopped and why, and what to do instead. The
   * artifact stays with the application (`artifact`, or an adapter's `onStop`), out of the context window.
   */
  toModelMessage(): string {
    return stopMessage({
      tool: this.call.tool,
      nextAction: this.nextAction,
      backoff: this.decision.backoff,
      artifact: this.artifact,
    });
  }

  /** A small JSON value to hand back to the model as the tool's result (no artifact: see toModelMessage). */
  toToolResult(): TokenCircuitToolResult {
    return {
      error: 'tokencircuit_stopped',
      tool: this.call.tool,
      nextAllowedAction: this.nextAction,
      message: this.toModelMessage(),
    };
  }
}

/** What the model sees of a stop; the application reads the rest from the TokenCircuitError. */
export interface TokenCircuitToolResult {
  readonly error: 'tokencircuit_stopped';
  readonly tool: string;
  readonly nextAllowedAction: NextAction;
  /** toModelMessage(): what was stopped and why, and what to do instead. */
  readonly message: string;
}
