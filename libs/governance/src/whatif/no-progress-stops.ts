import { NO_PROGRESS_DETECTORS, type NoProgressDetector } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import type { FailureState } from '../model.js';
import { noProgressOf } from '../progress/progress-policy.js';
import { fleetLoops, type FleetLoop, type RunLoopFact } from '../progress/fleet-loops.js';

/** How many stops a report lists (all are counted). */
export const NO_PROGRESS_STOP_LIMIT = 1_000;

/** The first call at which a policy's no_progress detectors would have stopped (blocked) a run. */
export interface NoProgressStop {
  readonly tenant: string;
  readonly run: string;
  readonly tool: string;
  readonly detector: NoProgressDetector;
  /** The run's n-th tool call (counted by outcomes, from 1) whose outcome reached the block. */
  readonly call: number;
  readonly callId: string;
  readonly eventId: string;
}

/** Per detector: how many runs it stopped first, and at which of their calls. */
export interface DetectorStops {
  readonly runs: number;
  /** null when it stopped no run. */
  readonly earliestCall: number | null;
  readonly medianCall: number | null;
}

/** One policy's no_progress stops over the replayed runs. */
export interface NoProgressStops {
  /** The block thresholds in force (read, write: same call; cycle: turns; poll: unchanged polls); null = detectors off. */
  readonly blockAt: {
    readonly read: number;
    readonly write: number;
    readonly cycle: number;
    readonly poll: number;
  } | null;
  /** Runs that made at least one call. */
  readonly runs: number;
  readonly runsStopped: number;
  readonly byDetector: Readonly<Record<NoProgressDetector, DetectorStops>>;
  /** Each stopped run's first stop, in event order, at most NO_PROGRESS_STOP_LIMIT. */
  readonly stops: readonly NoProgressStop[];
  /**
   * The fleet-wide loops this policy would have shown (docs/no-progress.md, "Fleet-wide loops"): every
   * (tool, call digest) on which its noProgress.fleet.runs runs looped within windowHours of the last
   * replayed event, the same fold preflight advises from; at most NO_PROGRESS_STOP_LIMIT.
   */
  readonly fleetLoops: readonly FleetLoop[];
}

/** Collects one policy's first no_progress block per run as a replay folds events. */
export class NoProgressStopTracker {
  private readonly stopped = new Set<string>();
  private readonly calls = new Map<NoProgressDetector, number[]>();
  private readonly listed: NoProgressStop[] = [];
  /** Each run key's loop as the per-run detectors left it: what the stored rows say to fleetLoops. */
  private readonly loops = new Map<string, RunLoopFact>();
  private lastEventMs = 0;

  constructor(private readonly policy: TokenCircuitConfig) {}

  /**
   * A decided state at the run's `call`-th call, at `time` (the event's): its loop is remembered for the
   * fleet fold, and it is counted when it is a no_progress block the run had not had yet.
   */
  record(state: FailureState, blocks: boolean, call: number, callId: string, eventId: string, time: string): void {
    this.rememberLoop(state, time);
    const detector = state.progress?.detector ?? null;
    if (state.failureClass !== 'no_progress' || !blocks || detector === null || state.key.run === null) return;
    const runId = `${state.key.tenant}\u0000${state.key.run}`;
    if (this.stopped.has(runId)) return;
    this.stopped.add(runId);
    const list = this.calls.get(detector) ?? [];
    list.push(call);
    this.calls.set(detector, list);
    if (this.listed.length < NO_PROGRESS_STOP_LIMIT) {
      this.listed.push({
        tenant: state.key.tenant,
        run: state.key.run,
        tool: state.key.equivalenceKey.tool_name,
        detector,
        call,
        callId,
        eventId,
      });
    }
  }

  /** Mirrors listFleetLoopFacts: a run key at a level is that run's loop (its cycle, else its last call). */
  private rememberLoop(state: FailureState, time: string): void {
    const progress = state.progress;
    if (state.failureClass !== 'no_progress' || state.key.run === null || progress === undefined) return;
    const atMs = Date.parse(time);
    if (atMs > this.lastEventMs) this.lastEventMs = atMs;
    if (progress.level === null || state.status === 'resolved') {
      this.loops.delete(state.keyId);
      return;
    }
    const last = progress.entries[progress.entries.length - 1];
    const callDigests = progress.cycle ?? (last === undefined ? [] : [last.callDigest]);
    if (callDigests.length === 0) return;
    this.loops.set(state.keyId, {
      run: state.key.run,
      tool: state.key.equivalenceKey.tool_name,
      callDigests,
      level: progress.level,
      at: time,
    });
  }

  build(runs: number): NoProgressStops {
    const p = noProgressOf(this.policy);
    const byDetector = Object.fromEntries(
      NO_PROGRESS_DETECTORS.map((d) => {
        const calls = [...(this.calls.get(d) ?? [])].sort((a, b) => a - b);
        return [
          d,
          {
            runs: calls.length,
            earliestCall: calls[0] ?? null,
            medianCall: calls.length === 0 ? null : calls[(calls.length - 1) >> 1]!,
          },
        ];
      }),
    ) as Record<NoProgressDetector, DetectorStops>;
    return {
      blockAt: p.enabled
        ? {
            read: p.sameCall.read.blockAt,
            write: p.sameCall.write.blockAt,
            cycle: p.cycle.blockAt,
            poll: p.polling.blockAt,
          }
        : null,
      runs,
      runsStopped: this.stopped.size,
      byDetector,
      stops: this.listed,
      fleetLoops: p.enabled
        ? fleetLoops([...this.loops.values()], p.fleet, this.lastEventMs).slice(0, NO_PROGRESS_STOP_LIMIT)
        : [],
    };
  }
}
