import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageMeaning, notSentPhrase, outputContractBroken } from './message-text.js';

// Phrases of every pattern, so texts often hold several (order decides which one speaks).
const PHRASES = [
  'connection refused',
  'Connection Refused',
  'could not connect to server',
  'name or service not known',
  'temporary failure in name resolution',
  'rate limit',
  'quota exceeded',
  'permission denied',
  'socket hang up',
  'timed out',
  'service unavailable',
  'already exists',
  'not found',
  'conflict',
  'invalid',
  ' ',
  ': ',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PHRASES), fc.string({ maxLength: 5 })), { maxLength: 5 })
  .map((parts) => parts.join(' '));

describe('notSentPhrase: messageMeaning, only when it proves the request never left', () => {
  it('agrees with messageMeaning for any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        const meaning = messageMeaning(t);
        expect(notSentPhrase(t)).toEqual(meaning?.effect === 'not_sent' ? meaning : null);
      }),
      { numRuns: 2000 },
    );
  });

  it('lets an earlier phrase speak first, as messageMeaning does', () => {
    expect(notSentPhrase('connection refused')?.reason).toBe('message:connection_refused');
    expect(notSentPhrase('permission denied: connection refused')).toBeNull();
    expect(notSentPhrase(null)).toBeNull();
  });
});

describe('messageMeaning: schema validators and payment refusals', () => {
  it.each([
    "Input validation error: 'owner' is a required property",
    "'abc' is not of type 'integer'",
    '1 validation error for CreateIssue\ntitle\n  Field required',
    'Input should be a valid integer, unable to parse string as an integer',
    'Expected string, received number',
    "Additional properties are not allowed ('colour' was unexpected)",
  ])('reads %j as validation', (text) => {
    expect(messageMeaning(text)?.failureClass).toBe('validation');
  });

  it('reads a declined payment as validation: its details must change', () => {
    expect(messageMeaning('Your card was declined.')?.reason).toBe('message:payment_declined');
    expect(messageMeaning('Transaction declined by issuer')?.failureClass).toBe('validation');
  });
});

describe('outputContractBroken: the tool’s own answer broke its declared output schema', () => {
  it('is an invariant violation whose effect is unknown (the tool ran)', () => {
    const meaning = outputContractBroken(
      'Output validation error: Invalid structured content for tool create_ticket: [{"code":"invalid_type"}]',
    );
    expect(meaning).toMatchObject({ failureClass: 'invariant_violation', effect: 'indeterminate' });
    expect(
      outputContractBroken('Output validation error: Tool x has an output schema but no structured content'),
    ).not.toBeNull();
  });

  it('says nothing of an input that failed validation, or of no text', () => {
    expect(outputContractBroken("Input validation error: 'owner' is a required property")).toBeNull();
    expect(outputContractBroken(null)).toBeNull();
  });
});

describe('messageMeaning: denials, absences and refusals as tools word them', () => {
  it.each([
    ['API token is invalid.', 'permission'],
    ['The caller does not have permission', 'permission'],
    ['ERROR: Permission to acme/web.git denied to agent-bot.', 'permission'],
    [
      'The sites robots.txt (https://x/robots.txt), specifies that autonomous fetching of this page is not allowed',
      'permission',
    ],
    ['Error response from daemon: No such container: 4f2a', 'missing_resource'],
    [
      'Could not find page with ID: 5983. Make sure the relevant pages are shared with your integration.',
      'missing_resource',
    ],
    ["Error: Cannot find module 'left-pad'", 'missing_resource'],
    ['body failed validation: body.parent.page_id should be a valid uuid', 'validation'],
    ["locator.click: Error: strict mode violation: locator('button') resolved to 3 elements", 'validation'],
  ])('reads %j as %s', (text, failureClass) => {
    expect(messageMeaning(text)?.failureClass).toBe(failureClass);
  });

  it('keeps schema wording that says "not allowed" a validation, not a denial', () => {
    expect(messageMeaning("Additional properties are not allowed ('colour' was unexpected)")?.failureClass).toBe(
      'validation',
    );
  });
});

describe('messageMeaning: SaaS clients’ wording', () => {
  it.each([
    ['Issue does not exist or you do not have permission to see it.', 'missing_resource'],
    ['Authentication credentials were not provided.', 'permission'],
    ["Couldn't authenticate you", 'permission'],
    ['JWT expired', 'permission'],
    ['Request had insufficient authentication scopes.', 'permission'],
    ['The user has not granted the app 123 write access to the file 1AbC.', 'permission'],
    ['The API key provided is invalid.', 'permission'],
    ["The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", 'validation'],
    ["The 'To' number +15005550001 is not a valid phone number.", 'validation'],
    ["Email can't be blank", 'validation'],
  ])('reads %j as %s', (text, failureClass) => {
    expect(messageMeaning(text)?.failureClass).toBe(failureClass);
  });
});
