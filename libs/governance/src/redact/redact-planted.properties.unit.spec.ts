import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@tokencircuit/contracts';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { LOOK_ALIKES } from './fixtures/look-alikes.js';
import { SECRET_SHAPES, type SecretShape } from './fixtures/secret-shapes.js';
import { redactCall, redactEvent } from './redact-event.js';

/**
 * No planted secret survives redactEvent: shapes of the corpus (fixtures/secret-shapes.ts) planted at
 * random places of random events (inside free text, identifiers, argument values at any depth, header
 * values, with random text around them), then the whole redacted event serialised and searched for each
 * secret, as written and as JSON escapes it.
 */
const agent = new SpecAgent(new Timeline('2026-12-04T09:00:00Z'), 't', 'a', 'r');

const shape = fc.constantFrom(...SECRET_SHAPES);
const filler = fc.string({ unit: fc.constantFrom(...'abcdefghij klmnop,;:.()'), maxLength: 20 });
/** A shape's text with random prose around it. */
const plantedText = fc
  .tuple(filler, shape, filler)
  .map(([before, s, after]) => ({ text: `${before} ${s.text} ${after}`, shape: s }));

/** A random JSON value whose string leaves are, now and then, planted texts. */
interface Planted {
  readonly value: unknown;
  readonly shapes: SecretShape[];
}
const argumentValue = fc.letrec<{ leaf: Planted; node: Planted }>((tie) => ({
  leaf: fc.oneof(
    plantedText.map((p) => ({ value: p.text, shapes: [p.shape] })),
    fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null)).map((value) => ({
      value,
      shapes: [],
    })),
  ),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc
      .array(tie('node'), { maxLength: 4 })
      .map((parts) => ({ value: parts.map((p) => p.value), shapes: parts.flatMap((p) => p.shapes) })),
    fc
      .dictionary(fc.string({ unit: fc.constantFrom(...'abcdefgh_'), minLength: 1, maxLength: 8 }), tie('node'), {
        maxKeys: 4,
      })
      .map((members) => {
        const entries = Object.entries(members);
        return {
          value: Object.fromEntries(entries.map(([k, p]) => [`arg_${k}`, p.value])),
          shapes: entries.flatMap(([, p]) => p.shapes),
        };
      }),
  ),
})).node;

const HEADER_NAMES = ['retry-after', 'x-request-id', 'www-authenticate', 'location', 'x-debug'];

const plantedEvent = fc
  .record({
    message: plantedText,
    resourceId: fc.option(plantedText, { nil: undefined }),
    args: fc.dictionary(fc.constantFrom('query', 'body', 'options', 'url', 'note'), argumentValue, { maxKeys: 4 }),
    header: fc.option(fc.tuple(fc.constantFrom(...HEADER_NAMES), plantedText), { nil: undefined }),
  })
  .map(({ message, resourceId, args, header }) => {
    const shapes = [message.shape, ...Object.values(args).flatMap((a) => a.shapes)];
    if (resourceId) shapes.push(resourceId.shape);
    if (header) shapes.push(header[1].shape);
    const call = agent.call('tool', {
      effect: 'write',
      resourceId: resourceId?.text.slice(0, 1024) ?? null,
      arguments: Object.fromEntries(Object.entries(args).map(([k, a]) => [k, a.value])),
    });
    const event = agent.failed(call, {
      httpStatus: 500,
      message: message.text,
      headers: header ? { [header[0]]: header[1].text } : {},
    });
    return { event, shapes };
  });

const survivors = (event: AgentEvent, shapes: readonly SecretShape[]): string[] => {
  const stored = JSON.stringify(event);
  return shapes
    .map((s) => s.secret)
    .filter((secret) => stored.includes(secret) || stored.includes(JSON.stringify(secret).slice(1, -1)));
};

describe('no planted secret survives redactEvent', () => {
  it('property: secrets of every family planted anywhere in an event', () => {
    fc.assert(
      fc.property(plantedEvent, ({ event, shapes }) => {
        const redacted = redactEvent(event);
        expect(survivors(redacted, shapes)).toEqual([]);
        // Deterministic and idempotent: what the projector redacts again after HTTP ingest is unchanged.
        expect(redactEvent(redacted)).toStrictEqual(redacted);
      }),
      { numRuns: 400 },
    );
  });

  it('property: the call of an event and the same call asked at preflight redact alike', () => {
    fc.assert(
      fc.property(plantedEvent, ({ event }) => {
        const call = (event.data as { call: object }).call;
        expect(redactCall(call)).toStrictEqual((redactEvent(event).data as { call: object }).call);
      }),
      { numRuns: 200 },
    );
  });
});

describe('credential names in objects (arguments and headers), by token families', () => {
  const NAMES = [
    'secret_key',
    'pass',
    'passwd',
    'auth_key',
    'signing_key',
    'app_key',
    'client_secret',
    'clientSecret',
    'client-secret',
    'CLIENT_SECRET',
    'x-goog-api-key',
    'Ocp-Apim-Subscription-Key',
    'x-functions-key',
    'X-Amz-Security-Token',
    'PRIVATE-TOKEN',
    'x-vault-token',
    ' x-api-key ',
    'sessionid',
    'JSESSIONID',
  ];
  const value = 'Zq3xR8vT2mK9pL4wN7bY';

  it.each(NAMES)('argument %j: its value becomes a marker', (name) => {
    const call = agent.call('tool', { arguments: { [name]: value, nested: { [name]: value } } });
    expect(JSON.stringify(redactCall(call))).not.toContain(value);
  });

  it.each(NAMES)('header %j: its value becomes a marker, also one that only starts with a marker', (name) => {
    for (const planted of [value, `[REDACTED:credentials]${value}`, `[REDACTED:credentials] ${value}`]) {
      const event = agent.failed(agent.call('tool'), { httpStatus: 401, headers: { [name]: planted } });
      expect(JSON.stringify(redactEvent(event))).not.toContain(value);
    }
  });

  it.each(['partition_key', 'sort_key', 'idempotency_key', 'password_reset_required', 'max_tokens', 'token_type'])(
    'argument %j keeps its value',
    (name) => {
      const call = agent.call('tool', { arguments: { [name]: 'orders-2026-12' } });
      expect(redactCall(call)).toStrictEqual(call);
    },
  );
});

describe('key pairs across an event (issue 27 point 8)', () => {
  const KEY_ID = 'AKIAZ7Q3R5T8V2X4Y6W9';
  const SECRET = 'Xk3pQ9zR7tV2wY5bN8mL4cJ6hG1fD0sA9eUiOp2K';

  it('the secret half in an argument, its key id in the error message', () => {
    const call = agent.call('s3_put', { arguments: { region: 'eu-west-1', k: SECRET } });
    const event = agent.failed(call, { httpStatus: 403, message: `InvalidAccessKeyId: ${KEY_ID}` });
    const stored = JSON.stringify(redactEvent(event));
    expect(stored).not.toContain(SECRET);
    expect(stored).not.toContain(KEY_ID);
    expect(stored).toContain('[REDACTED:aws_secret_access_key]');
  });

  it('the secret half in a header, the key id in the resource id', () => {
    const call = agent.call('s3_put', { resourceId: `iam-user/${KEY_ID}` });
    const event = agent.failed(call, { httpStatus: 403, headers: { 'x-debug': SECRET } });
    expect(JSON.stringify(redactEvent(event))).not.toContain(SECRET);
  });

  it('without the other half, the same 40 random characters are an identifier and stay', () => {
    const call = agent.call('lookup', { resourceId: `blob/${SECRET}` });
    const event = agent.failed(call, { httpStatus: 404, message: 'not found' });
    expect(redactEvent(event)).toBe(event);
  });

  it.each(LOOK_ALIKES.filter((l) => l.where === 'identifier').map((l) => [l.what, l.text] as const))(
    'in an event that carries a key id, %s still stays',
    (_what, text) => {
      const call = agent.call('s3_get', { resourceId: text });
      const event = agent.failed(call, { httpStatus: 403, message: `InvalidAccessKeyId: ${KEY_ID}` });
      expect((redactEvent(event).data as { call: { resourceId: string } }).call.resourceId).toBe(text);
    },
  );
});
