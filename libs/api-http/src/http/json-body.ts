import type { onRequestHookHandler } from 'fastify';
import { JsonLimitError, LIMITS, parseBoundedJson } from '@tokencircuit/contracts';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './api-errors.js';

/** The media types read as JSON: application/json and any application/<x>+json (CloudEvents, problem+json). */
export const JSON_MEDIA_TYPES: ReadonlyArray<string | RegExp> = ['application/json', /^application\/[^\s/;]+\+json/i];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Refuses, before any byte of the body is read, what would never parse: a body that is not declared as
 * JSON (415), in another charset or content coding than UTF-8 identity (415), or whose declared length
 * is above the cap (413). Bodies sent without a length are held to the cap by the parser's bodyLimit.
 */
export function jsonBodyRulesHook(maxBodyBytes: number): onRequestHookHandler {
  return function checkDeclaredBody(request, _reply, done) {
    if (!BODY_METHODS.has(request.method)) {
      done();
      return;
    }
    const headers = request.headers;
    if (!isJsonContentType(headers['content-type'])) {
      done(new UnsupportedMediaTypeError('the body must be JSON (content-type: application/json)'));
      return;
    }
    const charset = charsetOf(headers['content-type']!);
    if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
      done(new UnsupportedMediaTypeError(`unsupported charset "${charset.toUpperCase()}"`));
      return;
    }
    const coding = headers['content-encoding'];
    if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
      done(new UnsupportedMediaTypeError(`unsupported content encoding "${coding}"`));
      return;
    }
    if (Number(headers['content-length']) > maxBodyBytes) {
      done(new PayloadTooLargeError(`the body exceeds ${maxBodyBytes} bytes`));
      return;
    }
    done();
  };
}

export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const semicolon = header.indexOf(';');
  const essence = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  if (essence === 'application/json') return true;
  return essence.startsWith('application/') && essence.endsWith('+json') && !essence.includes('/', 12);
}

function charsetOf(header: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * JSON.parse, strict (an object or an array at the top, as body-parser's strict mode), with failures as
 * domain errors, and the contract's JSON limits (parseBoundedJson): nesting checked on the text before
 * parsing, numbers JSON cannot carry and "__proto__" members refused with the member's path.
 */
export function parseJsonBody(
  _request: unknown,
  text: string,
  done: (error: Error | null, body?: unknown) => void,
): void {
  let body: unknown;
  try {
    body = jsonBodyOf(text);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    done(error, undefined);
    return;
  }
  done(null, body);
}

/** parseJsonBody's rules for a body read as raw bytes first (a signed webhook): the value, or an InvalidRequestError. */
export function jsonBodyOf(text: string): unknown {
  let start = 0;
  while (start < text.length && isJsonWhitespace(text.charCodeAt(start))) start++;
  if (start === text.length) return {}; // an empty body reads as {} (as before); validation names what is missing
  const first = text.charCodeAt(start);
  if (first !== 0x7b && first !== 0x5b) throw invalidJson('a JSON body must be an object or an array');
  try {
    return parseBoundedJson(text, BODY_JSON_DEPTH);
  } catch (error) {
    if (!(error instanceof JsonLimitError)) throw error;
    throw error.code === 'invalid_json'
      ? invalidJson(error.reason)
      : new InvalidRequestError(error.code, error.path === '' ? '(body)' : error.path, error.reason);
  }
}

/** An event's limit plus the two levels of a batch ({ "events": [ … ] }); each event is then held to its own. */
const BODY_JSON_DEPTH = LIMITS.jsonDepth + 2;

const isJsonWhitespace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

const invalidJson = (reason: string): InvalidRequestError =>
  new InvalidRequestError('invalid_json', '(body)', `the body is not valid JSON: ${reason}`);
