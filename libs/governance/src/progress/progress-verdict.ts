import type { Backoff, DecisionLevel, NextAction } from '@tokencircuit/contracts';
import type { FailureState } from '../model.js';
import { epochMs, isoOf, LATEST_STORABLE_MS } from '../support/time.js';

/** decide()'s verdict on a no_progress key: the detector's level and the next allowed action it implies. */
export interface ProgressVerdict {
  readonly intervene: boolean;
  readonly level: DecisionLevel;
  readonly nextAction: NextAction;
  readonly backoff: Backoff | null;
  readonly why: string;
}

/**
 * Advice changes the approach (or, for a poller, the pace); a block says summarise what you have and
 * stop; a repeated write pages. A key whose last call broke the loop needs nobody told.
 */
export function progressVerdict(s: FailureState): ProgressVerdict {
  const t = s.progress!;
  if (t.level === null || t.detector === null) {
    return {
      intervene: false,
      level: 'advise',
      nextAction: 'proceed',
      backoff: null,
      why: 'The last call made progress.',
    };
  }
  const level = t.level;
  if (t.detector === 'polling') {
    const backoff = pollBackoff(s);
    return level === 'advise'
      ? {
          intervene: true,
          level,
          nextAction: 'poll_less_often',
          backoff,
          why: `The result has not changed for ${t.repeats} polls: wait ${Math.round(backoff!.delayMs / 1000)} s before the next one (the delay doubles per unchanged poll, the poll is blocked at ${t.thresholds!.blockAt}).`,
        }
      : {
          intervene: true,
          level,
          nextAction: 'forced_summary',
          backoff: null,
          why: `The result has not changed for ${t.repeats} polls (block at ${t.thresholds!.blockAt}): what it waits for is stuck. Summarise what you have and stop.`,
        };
  }
  const what =
    t.detector === 'cycle'
      ? `The run went ${t.repeats} times round a cycle of ${t.cycle!.length} calls with unchanged results`
      : `The same call returned the same result ${t.repeats} times in the run's last ${t.entries.length} calls here`;
  if (level === 'advise') {
    return {
      intervene: true,
      level,
      nextAction: 'change_approach',
      backoff: null,
      why: `${what}: repeating it will not give a different answer. Change approach (blocked at ${t.thresholds!.blockAt}).`,
    };
  }
  const write = t.read ? '' : ' A write repeated with the same result may be doing the same thing again each time.';
  return {
    intervene: true,
    level,
    nextAction: 'forced_summary',
    backoff: null,
    why: `${what} (block at ${t.thresholds!.blockAt}): the run is looping. Summarise what you have and stop.${write}${level === 'page' ? ' Paging a human.' : ''}`,
  };
}

/** The advised pause after an unchanged poll, counted from that poll's outcome. */
export function pollBackoff(s: FailureState): Backoff | null {
  const delayMs = s.progress?.delayMs ?? null;
  if (delayMs === null) return null;
  return {
    delayMs,
    source: 'no_progress_poll',
    notBefore: isoOf(Math.min(epochMs(s.updatedAt, 'updatedAt') + delayMs, LATEST_STORABLE_MS)),
  };
}

/** The facts every no_progress justification starts from. */
export function progressFacts(s: FailureState): string {
  const k = s.key.equivalenceKey;
  const t = s.progress!;
  const effect = t.read ? 'read' : 'write';
  return `no_progress of ${k.tool_name} (run ${s.key.run}, ${effect}${t.poll ? ', poller' : ''}): ${t.detector ?? 'no loop'}, ${t.repeats} repeat(s); thresholds ${t.thresholds ? `advise ${t.thresholds.adviseAt}, block ${t.thresholds.blockAt}${t.thresholds.pageAt === null ? '' : `, page ${t.thresholds.pageAt}`}` : 'not reached'}.`;
}
