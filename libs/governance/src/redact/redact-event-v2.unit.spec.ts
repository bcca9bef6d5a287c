import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agentEventToCloudEvent,
  cloudEventToAgentEvent,
  ContractError,
  type AgentEvent,
  type RawErrorInput,
} from '@tokencircuit/contracts';
import { SpecAgent, Timeline, type OutcomeContextFields } from '@tokencircuit/contracts/testing';
import { redactEvent } from './redact-event.js';

/**
 * The fields contract v2 added (outcome: error.code, error.details[] with sub-codes, reasons, types and
 * domains, provider, protocol, preconditions; verifier: finding and its refinements) pass the same
 * redaction step as the rest, and what redaction leaves still parses when the stored event is replayed.
 */
const GITHUB = 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
const STRIPE = 'sk_live_51HxAbCdEfGhIjKlMnOpQrSt';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

const agent = new SpecAgent(new Timeline('2026-12-01T09:59:59Z'), 't', 'a', 'r');
const call = agent.call('charge', { callId: 'c', intentId: 'i', effect: 'write' });
/** A failed charge whose error (and v2 context: provider, protocol, preconditions) the case chooses. */
const outcome = ({ error, ...context }: { error: RawErrorInput } & OutcomeContextFields): AgentEvent =>
  agent.failed(call, error, {}, context);

/** What the projector stores is the redacted event as a CloudEvent; replay must read it back unchanged. */
const replayed = (event: AgentEvent): AgentEvent => cloudEventToAgentEvent(agentEventToCloudEvent(event));

describe('redaction of contract v2 fields', () => {
  it('error details: sub-codes, reasons, types and domains; the error code; a secret in any of them never survives', () => {
    const event = outcome({
      provider: 'stripe',
      protocol: 'http',
      preconditions: ['if_match'],
      error: {
        httpStatus: 402,
        code: `card_declined ${STRIPE}`,
        details: [
          {
            type: `card_error token=${GITHUB}`,
            code: `decline ${GITHUB}`,
            reason: `see Bearer ${JWT}`,
            domain: STRIPE,
          },
          { code: 'insufficient_funds', reason: 'RATE_LIMIT_EXCEEDED', domain: 'stripe.com', retryDelayMs: 1000 },
        ],
      },
    });
    const clean = redactEvent(event);
    const text = JSON.stringify(clean);
    for (const secret of [GITHUB, STRIPE, 'eyJzdWIiOiIxMjM0NTY3ODkwIn0']) expect(text).not.toContain(secret);
    // What is not a secret is kept as it was: codes and documented reasons are what classify() reads.
    const error = (clean as Extract<AgentEvent, { type: 'tool_call.outcome' }>).data.error!;
    expect(error.details[1]).toEqual({
      type: null,
      code: 'insufficient_funds',
      reason: 'RATE_LIMIT_EXCEEDED',
      domain: 'stripe.com',
      retryDelayMs: 1000,
    });
    expect(error.code).toMatch(/^card_declined \[REDACTED:/);
    expect(replayed(clean)).toEqual(clean);
    expect(redactEvent(clean)).toBe(clean);
  });

  it('an e-mail address in an error detail reason is free text: removed', () => {
    const clean = redactEvent(
      outcome({ error: { details: [{ reason: 'mailbox bob@example.com is full', code: 'alice@example.com' }] } }),
    ) as Extract<AgentEvent, { type: 'tool_call.outcome' }>;
    expect(clean.data.error!.details[0]).toMatchObject({
      reason: 'mailbox [REDACTED:email] is full',
      code: 'alice@example.com',
    });
  });

  it('refuses a provider or protocol holding a credential: a marker would not parse on replay', () => {
    for (const field of ['provider', 'protocol']) {
      const event = outcome({ [field]: GITHUB, error: { httpStatus: 500 } });
      expect(() => redactEvent(event), field).toThrow(ContractError);
      expect(() => redactEvent(event)).toThrow(new RegExp(`data\\.${field}: looks like it holds a credential`));
    }
  });

  it("a verifier's detail and resolved identifier, v2 and v1 alike", () => {
    const v2 = redactEvent(
      agent.verified(
        call,
        'resource_resolution',
        'confirmed',
        { resolvedResourceId: `https://deploy:${GITHUB}@github.com/acme/repo.git` },
        `found it with Bearer ${JWT}`,
      ),
    );
    const v1 = redactEvent(
      agent.verifiedV1(call, 'resource_resolution', true, { resolvedResourceId: `orders ${STRIPE}` }, `key ${GITHUB}`),
    );
    for (const clean of [v2, v1]) {
      const text = JSON.stringify(clean);
      for (const secret of [GITHUB, STRIPE, 'eyJzdWIiOiIxMjM0NTY3ODkwIn0']) expect(text).not.toContain(secret);
      expect(clean.data).toMatchObject({ finding: 'confirmed' });
      expect(replayed(clean)).toEqual(clean);
    }
  });

  it('a GitHub token planted in any string of an error detail never survives', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((s) => `ghp_${s}`);
    const field = fc.constantFrom('type', 'code', 'reason', 'domain');
    fc.assert(
      fc.property(field, token, fc.nat({ max: 3 }), (name, secret, at) => {
        const details = Array.from({ length: 4 }, (_, i) => (i === at ? { [name]: `x ${secret} y` } : { code: 'ok' }));
        const clean = redactEvent(outcome({ error: { code: 'E', details } }));
        expect(JSON.stringify(clean)).not.toContain(secret.slice(4));
      }),
      { numRuns: 200 },
    );
  });
});
