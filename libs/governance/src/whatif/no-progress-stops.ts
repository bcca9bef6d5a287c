import { NO_PROGRESS_DETECTORS, type NoProgressDetector } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import type { FailureState } from '../model.js';
import { noProgressOf } from '../progress/progress-policy.js';

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
}

/** Collects one policy's first no_progress block per run as a replay folds events. */
export class NoProgressStopTracker {
  private readonly stopped = new Set<string>();
  private readonly calls = new Map<NoProgressDetector, number[]>();
  private readonly listed: NoProgressStop[] = [];

  constructor(private readonly policy: TokenCircuitConfig) {}

  /** A decided state at the run's `call`-th call: counted when it is a no_progress block the run had not had yet. */
  record(state: FailureState, blocks: boolean, call: number, callId: string, eventId: string): void {
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
    };
  }
}
