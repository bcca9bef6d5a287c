import { describe, expect, it } from 'vitest';
import type { DecisionLevel, DiagnosticArtifact, InterventionData } from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { interventionStop, preflightStop, stopLevel } from './stops.js';

const artifact = {
  key_id: 'k-1',
  failure_class: 'ambiguous_effect',
  classification_reason: 'timeout after dispatch',
  retry_count: 0,
  budget: 1,
  safety_justification: 'The write may have happened.',
  principal: 'svc-billing',
  resource_id: '/refunds',
  scope: 'run',
} as unknown as DiagnosticArtifact;

const call = { tool: 'refund.create', status: 'denied' } as unknown as CallHandle;
const LEVELS: readonly DecisionLevel[] = ['advise', 'block', 'page'];

describe('error.level is the level of what stopped the call (issue 27 point 5)', () => {
  it('a preflight refusal is a block whatever level the answer gives a call that would be sent', () => {
    for (const level of LEVELS) {
      const stop = preflightStop(
        {
          allow: false,
          reason: 'refund.create may have taken effect: reconcile it with a read-after-write before writing again',
          decision: {
            intervene: true,
            level,
            nextAction: 'reconcile_before_retry',
            backoff: null,
            safetyJustification: '',
          },
          artifact,
        },
        call,
      );
      expect(stop.level).toBe('block');
      // The answer itself is kept as the API gave it.
      expect(stop.decision.level).toBe(level);
      // The message never claims a page the refusal did not cause.
      expect(stop.message).toMatch(/^TokenCircuit stopped refund\.create: /);
    }
  });

  it('an intervention keeps its own level: the one the audit trail records and the notifier routes on', () => {
    for (const level of LEVELS) {
      const intervention = {
        keyId: 'k-1',
        level,
        nextAction: 'reconcile_before_retry',
        backoff: null,
        artifact,
      } as unknown as InterventionData;
      const stop = interventionStop(intervention, call, new Error('timeout'));
      expect(stop.level).toBe(level);
      expect(
        stop.message.startsWith(level === 'page' ? 'TokenCircuit paged a human and stopped' : 'TokenCircuit stopped'),
      ).toBe(true);
    }
  });

  it('stopLevel: intervention → its level, preflight → block', () => {
    for (const level of LEVELS) {
      expect(stopLevel('intervention', level)).toBe(level);
      expect(stopLevel('preflight', level)).toBe('block');
    }
  });
});
