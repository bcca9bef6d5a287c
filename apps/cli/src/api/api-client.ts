import { CliError, EXIT } from '../io/exit-codes.js';
import type { ApiTarget } from './api-target.js';

/** An HTTP error answer of the API, with its stable error code and the field it names. */
export class ApiResponseError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    // 404 is an answer ("there is no such thing": exit 1); every other refusal means the request could not run.
    super(message, status === 404 ? EXIT.findings : EXIT.usage);
  }
}

const REQUEST_TIMEOUT_MS = 15_000;

/** A small client of the TokenCircuit HTTP API (docs/openapi.json): JSON in, JSON or text out. */
export class ApiClient {
  constructor(
    readonly target: ApiTarget,
    private readonly signal: AbortSignal,
  ) {}

  getJson<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    return this.request<T>('GET', path, query, undefined, 'json');
  }

  postJson<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, {}, body, 'json');
  }

  /** GET returning the body as text and the response headers (CSV listings). */
  async getText(
    path: string,
    query: Record<string, string | number | undefined>,
  ): Promise<{ text: string; headers: Headers }> {
    return this.request('GET', path, query, undefined, 'text');
  }

  private async request<T>(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string | number | undefined>,
    body: unknown,
    as: 'json' | 'text',
  ): Promise<T> {
    const url = new URL(`${this.target.url}${path}`);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value));
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.target.apiKey}`,
          accept: as === 'json' ? 'application/json' : 'text/csv, application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([this.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
    } catch (error) {
      if (this.signal.aborted) throw error;
      throw new CliError(
        `cannot reach the TokenCircuit API at ${this.target.url} (${causeOf(error)}); is it running? Start it with "npm start" or pass --url`,
        EXIT.usage,
      );
    }
    const text = await response.text();
    if (!response.ok) throw errorOf(response.status, text, method, url, this.target);
    if (as === 'text') return { text, headers: response.headers } as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliError(
        `${method} ${url.pathname}: the answer is not JSON (is ${this.target.url} a TokenCircuit API?)`,
      );
    }
  }
}

function errorOf(status: number, text: string, method: string, url: URL, target: ApiTarget): ApiResponseError {
  let body: { error?: string; message?: string; field?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not the API's JSON error body (a proxy, another server): the status says enough.
  }
  const code = body.error ?? `http_${status}`;
  const detail = body.message ?? text.slice(0, 200);
  const hint = status === 401 ? ` (the key from ${target.keySource} is not accepted by ${target.url})` : '';
  return new ApiResponseError(status, code, `${method} ${url.pathname} → ${status} ${code}: ${detail}${hint}`);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return cause.code;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS} ms`;
  return (error as Error).message;
}
