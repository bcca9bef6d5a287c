import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURE_CLASSES, NEXT_ACTIONS, type EpisodeEventData } from '@tokencircuit/contracts';
import { refundArguments, refundPage, resolved, triggered } from '../spec-support/sample-steps.js';
import { notificationText, SUMMARY_MAX_CHARS } from './notification-text.js';
import { shellQuoted } from './next-action-text.js';

describe('notificationText: what a person reads, in the order they need it', () => {
  it('the refund page: one line with who, what, which resource and what to do first; then the action, the refund, the evidence', () => {
    const text = notificationText(refundPage, refundArguments);
    expect(text.summary).toBe(
      'support-agent: write of unknown outcome (payments.refund on payments-api:/v1/refunds) — check whether the write happened',
    );
    expect(text.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(text.nextAction.action).toBe('reconcile_before_retry');
    expect(text.nextAction.instruction).toMatch(/^Check in payments-api:\/v1\/refunds whether the write happened/);
    expect(text.nextAction.instruction).toContain("npx tokencircuit resolve 'k-refund-77' --as effect_confirmed");
    expect(shellQuoted("run|a'b")).toBe("'run|a'\\''b'");
    expect(text.nextAction.instruction).toContain('--as effect_absent');
    expect(text.arguments.shown.slice(0, 2)).toEqual([
      { name: 'charge_id', value: 'ch_3PqK8a2eZvKYlo2C1x0' },
      { name: 'order_id', value: 'ord_20261201_0042' },
    ]);
    expect(JSON.stringify(text)).not.toContain('sk_live_51HxAbCdEfGhIjKlMnOpQrStUv');
    // The engine's facts are evidence, after everything else; the justification comes last.
    expect(text.summary).not.toMatch(/seb=|declared_effect/);
    expect(text.evidence.at(-1)).toEqual({ label: 'Why', value: refundPage.summary });
    expect(text.evidence.map((e) => e.label)).toEqual(
      expect.arrayContaining(['Level', 'Class', 'Resource', 'Budget', 'Verifier', 'Receipts', 'Key', 'Episode']),
    );
  });

  it('acknowledgement and resolution say who closed it instead of what to do', () => {
    expect(notificationText(resolved, null).summary).toMatch(/— resolved by alice$/);
    expect(notificationText({ ...resolved, transition: 'acknowledged' }, null).summary).toMatch(
      /— acknowledged by alice$/,
    );
  });

  it('every class, next action and length of names: one line of at most 120 characters that ends with what to do first', () => {
    const long = fc.string({ minLength: 1, maxLength: 400 });
    fc.assert(
      fc.property(
        fc.constantFrom(...FAILURE_CLASSES),
        fc.constantFrom(...NEXT_ACTIONS),
        long,
        long,
        fc.option(long, { nil: null }),
        fc.option(long, { nil: null }),
        (failureClass, action, tool, agent, principal, resource) => {
          const step: EpisodeEventData = {
            ...triggered,
            failureClass,
            tool,
            agent,
            principal,
            artifact: { ...triggered.artifact!, next_allowed_action: action, resource_id: resource },
          };
          const text = notificationText(step, null);
          expect(text.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
          expect(text.summary).not.toContain('\n');
          expect(text.nextAction.action).toBe(action);
          if (tool.length < 20 && agent.length < 20 && (resource ?? '').length < 20)
            expect(text.summary.endsWith(` — ${text.nextAction.first}`)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
