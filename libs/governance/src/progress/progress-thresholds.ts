import type { TokenCircuitConfig } from '../config/config.js';
import { TokenCircuitConfigError } from '../config/load-config.js';
import { noProgressOf, noProgressProblems, type NoProgressPolicy, type Thresholds } from './progress-policy.js';

/** The detectors a threshold list may name, and the policy field each one's block threshold is. */
const NAMES = ['read', 'write', 'cycle', 'poll'] as const;
type ThresholdName = (typeof NAMES)[number];

/** A detector's thresholds with a new block threshold: advice no later than the block, a page no earlier. */
const blockingAt = <T extends Thresholds>(t: T, blockAt: number): T => ({
  ...t,
  adviseAt: Math.min(t.adviseAt, blockAt),
  blockAt,
  pageAt: t.pageAt === null ? null : Math.max(t.pageAt, blockAt),
});

/**
 * `config` with the no_progress block thresholds a list like "read=8,write=3" names (read, write:
 * same call, same result; cycle: whole turns; poll: unchanged polls), everything else as it was. For
 * tuning on history (`tokencircuit whatif --no-progress-threshold`); throws TokenCircuitConfigError
 * naming each problem, as a policy file with those thresholds would.
 */
export function withNoProgressThresholds(config: TokenCircuitConfig, list: string): TokenCircuitConfig {
  const problems: string[] = [];
  const given = new Map<ThresholdName, number>();
  for (const part of list.split(',').map((p) => p.trim())) {
    const match = /^([a-z]+)=(\d{1,4})$/.exec(part);
    const name = match?.[1] as ThresholdName | undefined;
    if (match === null || name === undefined || !NAMES.includes(name)) {
      problems.push(`"${part}": expected NAME=N with NAME one of ${NAMES.join(', ')}`);
      continue;
    }
    const value = Number(match[2]);
    if (value < 2 || value > 1_000) problems.push(`${name}: ${value} must be from 2 to 1000`);
    else if (given.has(name)) problems.push(`${name}: given twice`);
    else given.set(name, value);
  }
  if (problems.length > 0) throw new TokenCircuitConfigError(problems);
  const p = noProgressOf(config);
  const at = (name: ThresholdName) => given.get(name);
  const read = at('read');
  const write = at('write');
  const cycle = at('cycle');
  const poll = at('poll');
  const noProgress: NoProgressPolicy = {
    ...p,
    sameCall: {
      read: read === undefined ? p.sameCall.read : blockingAt(p.sameCall.read, read),
      write: write === undefined ? p.sameCall.write : blockingAt(p.sameCall.write, write),
    },
    cycle: cycle === undefined ? p.cycle : blockingAt(p.cycle, cycle),
    polling: poll === undefined ? p.polling : blockingAt(p.polling, poll),
  };
  const invalid = noProgressProblems(noProgress);
  if (invalid.length > 0) throw new TokenCircuitConfigError(invalid);
  return { ...config, noProgress };
}
