import type { AgentEvent } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { policyVersion } from '../config/policy-version.js';
import { decide } from '../decide/decide.js';
import { route } from '../keys/route.js';
import type { FailureState } from '../model.js';
import { preflight, type PreflightResult } from '../preflight/preflight.js';
import { MemoryStateStore } from '../state/memory-state-store.js';
import { project } from '../state/project-event.js';
import { NoProgressStopTracker } from './no-progress-stops.js';
import { TallyBuilder } from './tally.js';
import type { ChangedAttempt, ChangedKey, DecisionSummary, WhatIfReport } from './what-if-report.js';

/** How many changed attempts a report lists (all are counted): a summary, not a dump. */
export const WHAT_IF_ATTEMPT_LIMIT = 1_000;

/** One policy's fold: its own states, since key scopes and budgets differ between policies. */
class PolicyFold {
  readonly store = new MemoryStateStore();
  readonly tally = new TallyBuilder();
  readonly interventionsByKey = new Map<string, number>();
  readonly stops: NoProgressStopTracker;

  constructor(readonly policy: TokenCircuitConfig) {
    this.stops = new NoProgressStopTracker(policy);
  }

  /** The preflight answer for a requested call, against the states before it. */
  preflightOf(event: AgentEvent & { type: 'tool_call.requested' }): PreflightResult {
    const candidates = this.store.candidates(route(event, this.policy));
    return preflight(candidates, event.tenant, event.data.call, this.policy, event.time);
  }

  /**
   * Folds the event; returns the decision of every key that needs one at this event. `call`: for an
   * outcome, which call of its run it is (from 1), so a no_progress block is reported at that call.
   */
  apply(event: AgentEvent, call: number): Map<string, { state: FailureState; summary: DecisionSummary }> {
    const routed = route(event, this.policy);
    const result = project(this.store.candidates(routed), event, routed, this.policy, this.store);
    for (const state of result.changed) this.store.put(state);
    this.store.remember(result.memory);
    const decided = new Map<string, { state: FailureState; summary: DecisionSummary }>();
    for (const entry of result.outbox) {
      const state = entry.snapshot;
      const decision = decide(state, this.policy);
      if (decision.intervene) {
        this.tally.add(decision.level, decision.nextAction, state.failureClass, state.key.equivalenceKey.tool_name);
        this.interventionsByKey.set(state.keyId, (this.interventionsByKey.get(state.keyId) ?? 0) + 1);
      }
      if (event.type === 'tool_call.outcome') {
        const blocks = decision.intervene && decision.level !== 'advise';
        this.stops.record(state, blocks, call, event.data.call.callId, event.id, event.time);
      }
      decided.set(state.keyId, {
        state,
        summary: {
          intervene: decision.intervene,
          level: decision.level,
          nextAction: decision.nextAction,
          status: state.status,
          retryCount: state.retryCount,
          budget: state.budget,
        },
      });
    }
    return decided;
  }
}

const sameDecision = (a: DecisionSummary | null, b: DecisionSummary | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.intervene === b.intervene &&
    a.level === b.level &&
    a.nextAction === b.nextAction &&
    a.status === b.status &&
    a.retryCount === b.retryCount &&
    a.budget === b.budget);

/**
 * What-if replay: folds the same events under two policies side by side, one event at a time (so a
 * caller can stream a database of any size through it) and says where their decisions part. Pure and
 * deterministic like the fold itself: the same events and policies always give the same report.
 */
export class WhatIf {
  private readonly baseline: PolicyFold;
  private readonly candidate: PolicyFold;
  private readonly seen = new Set<string>();
  private readonly changed = new Map<string, Omit<ChangedKey, 'interventions'>>();
  private readonly attempts: ChangedAttempt[] = [];
  private events = 0;
  private requested = 0;
  private stopped = 0;
  private letThrough = 0;
  private duplicates = 0;
  /** Calls (outcomes) per tenant and run so far: where in its run a no_progress stop lands. */
  private readonly callsByRun = new Map<string, number>();

  constructor(
    baseline: TokenCircuitConfig,
    candidate: TokenCircuitConfig,
    /** false when the source is already distinct by id (agent_events): saves a set of every id. */
    private readonly dedupe = true,
  ) {
    this.baseline = new PolicyFold(baseline);
    this.candidate = new PolicyFold(candidate);
  }

  push(event: AgentEvent): void {
    if (this.dedupe) {
      if (this.seen.has(event.id)) return;
      this.seen.add(event.id);
    }
    this.events += 1;
    if (event.type === 'tool_call.requested') this.compareAttempt(event);
    let call = 0;
    if (event.type === 'tool_call.outcome') {
      const run = `${event.tenant}\u0000${event.data.call.run}`;
      call = (this.callsByRun.get(run) ?? 0) + 1;
      this.callsByRun.set(run, call);
    }
    const before = this.baseline.apply(event, call);
    const after = this.candidate.apply(event, call);
    for (const keyId of new Set([...before.keys(), ...after.keys()])) {
      if (this.changed.has(keyId)) continue;
      const b = before.get(keyId) ?? null;
      const c = after.get(keyId) ?? null;
      if (sameDecision(b?.summary ?? null, c?.summary ?? null)) continue;
      const state = (b ?? c)!.state;
      this.changed.set(keyId, {
        keyId,
        tenant: state.key.tenant,
        failureClass: state.failureClass,
        tool: state.key.equivalenceKey.tool_name,
        firstDifference: {
          eventId: event.id,
          time: event.time,
          baseline: b?.summary ?? null,
          candidate: c?.summary ?? null,
        },
      });
    }
  }

  report(): WhatIfReport {
    const changedKeys = [...this.changed.values()].map((key) => ({
      ...key,
      interventions: {
        baseline: this.baseline.interventionsByKey.get(key.keyId) ?? 0,
        candidate: this.candidate.interventionsByKey.get(key.keyId) ?? 0,
      },
    }));
    return {
      summary: {
        events: this.events,
        // Keys at every coordinate the fold remembers: a run memory is a no_progress key not opened yet
        // (no finding), so the count is what it was when each run's first success opened its key.
        keys: {
          baseline: this.baseline.store.stateCount + this.baseline.store.memoryCount,
          candidate: this.candidate.store.stateCount + this.candidate.store.memoryCount,
          changed: changedKeys.length,
        },
        interventions: { baseline: this.baseline.tally.build(), candidate: this.candidate.tally.build() },
        attempts: {
          requested: this.requested,
          stopped: this.stopped,
          letThrough: this.letThrough,
          possibleDuplicateSideEffects: this.duplicates,
        },
        policyVersions: {
          baseline: policyVersion(this.baseline.policy),
          candidate: policyVersion(this.candidate.policy),
        },
        noProgress: {
          baseline: this.baseline.stops.build(this.callsByRun.size),
          candidate: this.candidate.stops.build(this.callsByRun.size),
        },
      },
      changedKeys: rankChangedKeys(changedKeys),
      changedAttempts: this.attempts,
    };
  }

  private compareAttempt(event: AgentEvent & { type: 'tool_call.requested' }): void {
    this.requested += 1;
    const b = this.baseline.preflightOf(event);
    const c = this.candidate.preflightOf(event);
    if (b.allow === c.allow) return;
    const call = event.data.call;
    const change = b.allow ? 'stopped' : 'let_through';
    // The baseline held a mutating call because a write's effect was unknown or already applied: letting it
    // through is the duplicate side effect the RFC exists to prevent.
    const possibleDuplicateSideEffect =
      change === 'let_through' && call.effect !== 'read' && b.blocking?.failureClass === 'ambiguous_effect';
    if (change === 'stopped') this.stopped += 1;
    else this.letThrough += 1;
    if (possibleDuplicateSideEffect) this.duplicates += 1;
    if (this.attempts.length < WHAT_IF_ATTEMPT_LIMIT) {
      this.attempts.push({
        eventId: event.id,
        tenant: event.tenant,
        run: call.run,
        tool: call.tool,
        callId: call.callId,
        change,
        reason: (b.allow ? c : b).reason,
        possibleDuplicateSideEffect,
      });
    }
  }
}

const SEVERITY: Readonly<Record<string, number>> = { page: 3, block: 2, advise: 1 };
const severityOf = (d: DecisionSummary | null): number => (d === null || !d.intervene ? 0 : (SEVERITY[d.level] ?? 0));

/**
 * Most consequential first: the strongest decision involved at the first difference (a page or a block
 * appearing or vanishing outranks advice), then the largest change in interventions, then key id.
 */
export function rankChangedKeys(keys: readonly ChangedKey[]): ChangedKey[] {
  const weight = (k: ChangedKey) =>
    Math.max(severityOf(k.firstDifference.baseline), severityOf(k.firstDifference.candidate));
  return [...keys].sort(
    (a, b) =>
      weight(b) - weight(a) ||
      Math.abs(b.interventions.candidate - b.interventions.baseline) -
        Math.abs(a.interventions.candidate - a.interventions.baseline) ||
      a.keyId.localeCompare(b.keyId),
  );
}

/** Folds `events` under both policies and reports the difference (for traces held in memory). */
export function whatIf(
  events: Iterable<AgentEvent>,
  baseline: TokenCircuitConfig,
  candidate: TokenCircuitConfig,
): WhatIfReport {
  const comparison = new WhatIf(baseline, candidate);
  for (const event of events) comparison.push(event);
  return comparison.report();
}
