import type { DecisionLevel, InterventionClass, NextAction } from '@tokencircuit/contracts';
import type { FailureStatus } from '../model.js';
import type { NoProgressStops } from './no-progress-stops.js';

/** What one policy decided for a key at one event: enough to tell two policies apart, no artifact text. */
export interface DecisionSummary {
  readonly intervene: boolean;
  readonly level: DecisionLevel;
  readonly nextAction: NextAction;
  readonly status: FailureStatus;
  readonly retryCount: number;
  readonly budget: number;
}

/** Interventions one policy produced, counted four ways. */
export interface InterventionTally {
  readonly total: number;
  readonly byLevel: Readonly<Record<string, number>>;
  readonly byNextAction: Readonly<Record<string, number>>;
  readonly byClass: Readonly<Record<string, number>>;
  readonly byTool: Readonly<Record<string, number>>;
}

/** A key whose decisions differ between the policies, from the first event where they part. */
export interface ChangedKey {
  readonly keyId: string;
  readonly tenant: string;
  readonly failureClass: InterventionClass;
  readonly tool: string;
  readonly firstDifference: {
    readonly eventId: string;
    readonly time: string;
    /** null: this policy made no decision for the key at that event. */
    readonly baseline: DecisionSummary | null;
    readonly candidate: DecisionSummary | null;
  };
  readonly interventions: { readonly baseline: number; readonly candidate: number };
}

/** A requested call the two policies' preflight would answer differently. */
export interface ChangedAttempt {
  readonly eventId: string;
  readonly tenant: string;
  readonly run: string;
  readonly tool: string;
  readonly callId: string;
  /** stopped: the baseline let it run, the candidate would not; let_through: the other way round. */
  readonly change: 'stopped' | 'let_through';
  /** The denying policy's reason. */
  readonly reason: string;
  /** A mutating call let through while the baseline held it for an unreconciled or applied write. */
  readonly possibleDuplicateSideEffect: boolean;
}

export interface WhatIfSummary {
  readonly events: number;
  readonly keys: { readonly baseline: number; readonly candidate: number; readonly changed: number };
  readonly interventions: { readonly baseline: InterventionTally; readonly candidate: InterventionTally };
  readonly attempts: {
    readonly requested: number;
    readonly stopped: number;
    readonly letThrough: number;
    readonly possibleDuplicateSideEffects: number;
  };
  readonly policyVersions: { readonly baseline: string; readonly candidate: string };
  /** Runs each policy's no_progress detectors would have stopped, and at which call (tuning thresholds on history). */
  readonly noProgress: { readonly baseline: NoProgressStops; readonly candidate: NoProgressStops };
}

export interface WhatIfReport {
  readonly summary: WhatIfSummary;
  /** Most consequential first (see rankChangedKeys). */
  readonly changedKeys: readonly ChangedKey[];
  /** In event order, at most the report's attempt limit. */
  readonly changedAttempts: readonly ChangedAttempt[];
}
