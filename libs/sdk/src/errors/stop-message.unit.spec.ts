import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURE_CLASSES, NEXT_ACTIONS } from '@tokencircuit/contracts';
import { stopMessage } from './stop-message.js';

describe('stopMessage: what the model is told about a stop', () => {
  it('the RFC permission case reads as what was stopped, why, and what to do instead', () => {
    expect(
      stopMessage({
        tool: 'finance.salary_report',
        nextAction: 'stop_request_authorization',
        backoff: null,
        artifact: {
          failure_class: 'permission',
          principal: 'svc-reporting',
          resource_id: '/reports/salaries',
          scope: 'fleet',
        },
      }),
    ).toBe(
      'TokenCircuit stopped finance.salary_report: svc-reporting is not authorized for /reports/salaries ' +
        '(blocked fleet-wide). Do not retry or rephrase this call; tell the user that access must be granted.',
    );
  });

  it('a backoff names the time to wait for', () => {
    expect(
      stopMessage({
        tool: 'search',
        nextAction: 'retry_with_backoff',
        backoff: { delayMs: 4000, source: 'retry_after', notBefore: '2026-01-05T10:00:04.000Z' },
        artifact: { failure_class: 'transient', principal: null, resource_id: 'kb', scope: 'run' },
      }),
    ).toBe(
      'TokenCircuit stopped search: kb is failing for now. Do not call it again before 2026-01-05T10:00:04.000Z; ' +
        'continue without it meanwhile.',
    );
  });

  it('every class and next action gives two sentences of at most 400 characters, whatever the names', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FAILURE_CLASSES),
        fc.constantFrom(...NEXT_ACTIONS),
        fc.string({ minLength: 1, maxLength: 2000 }),
        fc.option(fc.string({ maxLength: 2000 })),
        fc.option(fc.string({ maxLength: 2000 })),
        fc.constantFrom('fleet' as const, 'run' as const),
        (failureClass, nextAction, tool, principal, resource, scope) => {
          const message = stopMessage({
            tool,
            nextAction,
            backoff: null,
            artifact: { failure_class: failureClass, principal, resource_id: resource, scope },
          });
          expect(message.length).toBeLessThanOrEqual(400);
          expect(message).toMatch(/^TokenCircuit stopped .+: .+\. [A-Z].+\.$/s);
        },
      ),
    );
  });
});
