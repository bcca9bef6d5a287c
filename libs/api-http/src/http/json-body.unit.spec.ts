import { describe, expect, it } from 'vitest';
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

  it('parses objects and arrays, reads an empty body as {}, and keeps a "__proto__" member as an own property', () => {
    expect(parse(' {"a":[1,2]} ')).toEqual({ error: null, body: { a: [1, 2] } });
    expect(parse('[]')).toEqual({ error: null, body: [] });
    expect(parse(' \n')).toEqual({ error: null, body: {} });
    const { body } = parse('{"__proto__":{"x":1}}') as { body: Record<string, unknown> };
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it('refuses malformed JSON and bare scalars as invalid_json on the body', () => {
    for (const text of ['{"a":', '"just a string"', '42', 'null']) {
      const { error } = parse(text);
      expect(error, text).toBeInstanceOf(InvalidRequestError);
      expect(error).toMatchObject({ code: 'invalid_json', field: '(body)' });
    }
  });
});
