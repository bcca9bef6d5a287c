import {
  outcomeOfNetworkError,
  outcomeOfResponse,
  redact,
  type AttemptOutcome,
  type OutboundRequest,
} from '@tokencircuit/notifier';

/** Sends one request; never throws. Reasons are cut and have the sink's secrets redacted. */
export type Sender = (
  request: OutboundRequest,
  timeoutMs: number,
  secrets: readonly string[],
) => Promise<AttemptOutcome>;

const SNIPPET_CHARS = 300;

/** The production sender: fetch, no redirects followed (a webhook moved is a configuration error to see). */
export const sendHttp: Sender = async (request, timeoutMs, secrets) => {
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text().catch(() => '');
    const snippet = redact(text.slice(0, SNIPPET_CHARS).replace(/\s+/g, ' ').trim(), secrets);
    return outcomeOfResponse(response.status, response.headers.get('retry-after'), new Date(), snippet);
  } catch (error) {
    return outcomeOfNetworkError(redact(describeNetworkError(error), secrets));
  }
};

function describeNetworkError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e?.message ?? 'request failed'} (${cause})` : (e?.message ?? String(error));
}
