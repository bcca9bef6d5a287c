import type { ToolCall } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import type { FailureState } from '../model.js';
import { rememberIn, type ProgressMemory } from '../progress/progress-memory.js';
import { decide } from '../decide/decide.js';
import { preflight } from '../preflight/preflight.js';
import { judgeAttempt } from '../state/judge-attempt.js';
import { standingViolation } from '../state/verifier-rules.js';
import { buildTrace, traceSteps } from '../testing/trace-arbitrary.js';
import { createGovernance } from '../governance.js';

const governance = createGovernance(DEFAULT_CONFIG);

const RUNS = { numRuns: 150 };

describe('preflight agrees with evolve', () => {
  it('a call preflight allows is never recorded as a violation', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const states = new Map<string, FailureState>();
        const memories = new Map<string, ProgressMemory>();
        for (const event of buildTrace(steps, DEFAULT_CONFIG)) {
          const verdict =
            event.type === 'tool_call.requested' || event.type === 'tool_call.outcome'
              ? preflight(states.values(), event.tenant, event.data.call, DEFAULT_CONFIG, event.time)
              : null;
          const result = governance.project(states.values(), event, memories);
          rememberIn(memories, result.memory);
          if (verdict?.allow) {
            for (const next of result.changed) {
              const before = states.get(next.keyId);
              if (before && before.episode === next.episode)
                expect(next.violations, `${next.keyId} after ${event.id}`).toBe(before.violations);
            }
          }
          for (const s of result.changed) states.set(s.keyId, s);
        }
      }),
      RUNS,
    );
  });

  it('allow and level never disagree: a denial is at least a block, an allowance carries no decision', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const states = new Map<string, FailureState>();
        const memories = new Map<string, ProgressMemory>();
        for (const event of buildTrace(steps, DEFAULT_CONFIG)) {
          if (event.type === 'tool_call.requested' || event.type === 'tool_call.outcome') {
            const answer = preflight(states.values(), event.tenant, event.data.call, DEFAULT_CONFIG, event.time);
            if (answer.allow) expect(answer.decision, answer.reason).toBeNull();
            else expect(['block', 'page'], answer.reason).toContain(answer.decision?.level);
          }
          const result = governance.project(states.values(), event, memories);
          for (const s of result.changed) states.set(s.keyId, s);
          rememberIn(memories, result.memory);
        }
      }),
      RUNS,
    );
  });

  it('a denial says where (the blocking key, named at the end) and never blames the asking call for an ignored block', () => {
    let denials = 0;
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const states = new Map<string, FailureState>();
        const memories = new Map<string, ProgressMemory>();
        for (const event of buildTrace(steps, DEFAULT_CONFIG)) {
          if (event.type === 'tool_call.requested') {
            const answer = preflight(states.values(), event.tenant, event.data.call, DEFAULT_CONFIG, event.time);
            if (!answer.allow) {
              denials++;
              expect(answer.reason.endsWith(` [key ${answer.blocking!.keyId}]`), answer.reason).toBe(true);
              expect(answer.reason).toContain(answer.blocking!.key.equivalenceKey.tool_name);
              expect(answer.reason).not.toMatch(/ignored/);
              expect(answer.decision!.safetyJustification).not.toMatch(/This call .*\(ignored block\)/);
            }
          }
          const result = governance.project(states.values(), event, memories);
          for (const s of result.changed) states.set(s.keyId, s);
          rememberIn(memories, result.memory);
        }
      }),
      RUNS,
    );
    expect(denials).toBeGreaterThan(0);
  });

  it('preflight and decide agree: a call denied as a violation, once sent, gets the same level and next action', () => {
    let compared = 0;
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const states = new Map<string, FailureState>();
        const memories = new Map<string, ProgressMemory>();
        for (const event of buildTrace(steps, DEFAULT_CONFIG)) {
          const answer =
            event.type === 'tool_call.requested'
              ? preflight(states.values(), event.tenant, event.data.call, DEFAULT_CONFIG, event.time)
              : null;
          const result = governance.project(states.values(), event, memories);
          rememberIn(memories, result.memory);
          const blocking = answer?.blocking;
          if (event.type === 'tool_call.requested' && blocking) {
            const verdict = judgeAttempt(blocking, event.data.call, event.time);
            if (verdict.counts && verdict.violation !== null) {
              const next = result.changed.find((s) => s.keyId === blocking.keyId)!;
              expect(standingViolation(next)).toBe(verdict.violation);
              const after = decide(next, DEFAULT_CONFIG);
              expect({ level: after.level, nextAction: after.nextAction }).toEqual({
                level: answer.decision?.level,
                nextAction: answer.decision?.nextAction,
              });
              compared++;
            }
          }
          for (const s of result.changed) states.set(s.keyId, s);
        }
      }),
      RUNS,
    );
    // The generator must reach violations, or the property says nothing.
    expect(compared).toBeGreaterThan(0);
  });

  it('while a fleet key is blocked, every agent of the fleet acting as that principal on that resource is denied', () => {
    fc.assert(
      fc.property(traceSteps(), (steps) => {
        const { states } = governance.replay(buildTrace(steps, DEFAULT_CONFIG));
        for (const s of states.values()) {
          if (s.key.scope !== 'fleet' || s.status !== 'blocked') continue;
          const k = s.key.equivalenceKey;
          const stranger: ToolCall = {
            agent: 'newcomer',
            run: 'a-run-nobody-used',
            callId: 'fresh-call',
            attempt: 1,
            intentId: 'fresh-intent',
            tool: k.tool_name,
            effect: 'read',
            resourceClass: k.resource_class,
            resourceId: s.key.resourceId,
            principal: s.key.principal,
            authScope: k.auth_scope,
            arguments: { anything: 'at all' },
            idempotencyKey: null,
            httpMethod: null,
            sqlStatement: null,
          };
          const answer = preflight(states.values(), s.key.tenant, stranger, DEFAULT_CONFIG, s.updatedAt);
          expect(answer.allow).toBe(false);
          expect(answer.blocking?.key.scope).toBe('fleet');
        }
      }),
      RUNS,
    );
  });
});
