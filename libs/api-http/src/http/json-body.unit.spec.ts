import { describe, expect, it } from 'vitest';
import { LIMITS } from '@tokencircuit/contracts';
import { InvalidRequestError } from './api-errors.js';
import { isJsonContentType, parseJsonBody } from './json-body.js';

const parse = (text: string): { error: Error | null; body?: unknown } => {
  let result: { error: Error | null; body?: unknown } = { error: null };
  parseJsonBody(undefined, text, (error, body) => (result = { error, body }));
  return result;
};

describe('JSON bodies', () => {
  it('reads application/json and application/<x>+json, with parameters, and nothing else', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/cloudevents+json; charset=UTF-8')).toBe(true);
    expect(isJsonContentType(undefined)).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType('application/x-www-form-urlencoded')).toBe(false);
    expect(isJsonContentType('application/json-seq')).toBe(false);
  });

  it('parses objects and arrays and reads an empty body as {}', () => {
    expect(parse(' {"a":[1,2]} ')).toEqual({ error: null, body: { a: [1, 2] } });
    expect(parse('[]')).toEqual({ error: null, body: [] });
    expect(parse(' \n')).toEqual({ error: null, body: {} });
  });

  // Kept by JSON.parse but dropped by every reader that copies by assignment (zod records): refused, not lost.
  it('refuses a "__proto__" member, naming where it is', () => {
    const { error } = parse('{"events":[{"data":{"call":{"arguments":{"__proto__":{"x":1}}}}}]}');
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'reserved_member', field: 'events.0.data.call.arguments.__proto__' });
  });

  it('refuses nesting beyond the limit before parsing, at any depth of the attack', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(parse(nested(LIMITS.jsonDepth + 2)).error).toBeNull();
    for (const levels of [LIMITS.jsonDepth + 3, 10_000, 1_000_000]) {
      expect(parse(nested(levels)).error).toMatchObject({ status: 400, code: 'too_deep', field: '(body)' });
    }
  });

  it('refuses a number JSON cannot carry (1e400 would read as Infinity and be written back as null)', () => {
    expect(parse('{"n":1e400}').error).toMatchObject({ status: 400, code: 'not_finite', field: 'n' });
  });

  it('refuses malformed JSON and bare scalars as invalid_json on the body', () => {
    for (const text of ['{"a":', '"just a string"', '42', 'null']) {
      const { error } = parse(text);
      expect(error, text).toBeInstanceOf(InvalidRequestError);
      expect(error).toMatchObject({ code: 'invalid_json', field: '(body)' });
    }
  });
});
