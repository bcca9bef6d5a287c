import type { z } from 'zod';
import { ApiRequestError } from '../errors/sdk-errors.js';
import type { ApiEndpoint } from '../options/governor-options.js';
import { requestJson, type HttpAnswer } from './http-request.js';

/** How long one API request may take; preflight answers in milliseconds, so this is generous. */
const REQUEST_TIMEOUT_MS = 10_000;

/** A thin JSON client for the TokenCircuit HTTP API (Bearer key, validated answers, typed errors). */
export class ApiClient {
  constructor(private readonly endpoint: ApiEndpoint) {}

  get(path: string, schema: z.ZodType): Promise<unknown> {
    return this.request('GET', path, undefined, schema);
  }

  post(path: string, body: unknown, schema: z.ZodType): Promise<unknown> {
    return this.request('POST', path, body, schema);
  }

  private async request(method: string, path: string, body: unknown, schema: z.ZodType): Promise<unknown> {
    const url = `${this.endpoint.url}${path}`;
    let response: HttpAnswer;
    try {
      response = await requestJson(
        method,
        url,
        {
          authorization: `Bearer ${this.endpoint.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body === undefined ? undefined : JSON.stringify(body),
        REQUEST_TIMEOUT_MS,
      );
    } catch (cause) {
      throw new ApiRequestError(`${method} ${url}: no answer (${describe(cause)})`, null, null, { cause });
    }
    const { text } = response;
    const json = parseJson(text);
    if (response.status < 200 || response.status > 299) {
      const problem = (json ?? {}) as { error?: unknown; message?: unknown };
      const code = typeof problem.error === 'string' ? problem.error : null;
      const message = typeof problem.message === 'string' ? problem.message : text.slice(0, 200);
      throw new ApiRequestError(
        `${method} ${url}: HTTP ${response.status}${code ? ` ${code}` : ''}: ${message}`,
        response.status,
        code,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiRequestError(
        `${method} ${url}: unexpected answer (${issue?.path.join('.') || '(body)'}: ${issue?.message}); is this a TokenCircuit API of a compatible version?`,
        response.status,
        'unexpected_answer',
      );
    }
    return parsed.data;
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
}
