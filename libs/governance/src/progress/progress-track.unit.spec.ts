import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { noProgressOf } from './progress-policy.js';
import { emptyTrack, observe, type ProgressEntry, type ProgressTrack } from './progress-track.js';

const policy = noProgressOf(DEFAULT_CONFIG);
const entry = (callId: string, callDigest: string, result: string): ProgressEntry => ({
  callId,
  callDigest,
  resultDigest: `sha256:${result}`,
});

describe('a new track’s cycle counters', () => {
  it('are one frozen array of zeros shared by every new track, which observe copies before counting a cycle', () => {
    const first = emptyTrack(true, false, policy);
    const second = emptyTrack(false, false, policy);
    expect(first.periodRuns).toBe(second.periodRuns);
    expect(Object.isFrozen(first.periodRuns)).toBe(true);
    expect(first.periodRuns).toEqual(new Array(policy.cycle.maxLength - 1).fill(0));

    // A-B-A-B-A: the period-2 counter rises in the tracks observe returns, never in the shared zeros.
    let track: ProgressTrack = first;
    for (let i = 0; i < 5; i += 1)
      track = observe(track, i % 2 === 0 ? entry(`a${i}`, 'h:a:1', 'x') : entry(`b${i}`, 'h:b:1', 'y'), policy);
    expect(track.periodRuns[0]).toBe(3);
    expect(track.periodRuns).not.toBe(first.periodRuns);
    expect(emptyTrack(true, false, policy).periodRuns).toEqual(new Array(policy.cycle.maxLength - 1).fill(0));
  });

  it('stay the shared zeros while the calls of a run never repeat', () => {
    let track = emptyTrack(true, false, policy);
    const zeros = track.periodRuns;
    for (let i = 0; i < 8; i += 1) track = observe(track, entry(`c${i}`, `h:${i}:1`, `r${i}`), policy);
    expect(track.periodRuns).toBe(zeros);
  });
});
