import { headerValue, type RawError } from '@tokencircuit/contracts';
import { HTTP_REASON_PHRASES } from '../classify/http-reason-phrases.js';
import { normaliseGrpcCode } from '../classify/grpc-status.js';
import { redact, redactRepeated } from './redact.js';

/** Receipts are evidence for a human, kept three at a time per key: one line, bounded. */
export const RECEIPT_MAX_CHARS = 500;

function headOf(error: RawError): string[] {
  const parts: string[] = [];
  if (error.httpStatus !== null) {
    const phrase = HTTP_REASON_PHRASES[error.httpStatus];
    parts.push(`HTTP ${error.httpStatus}${phrase ? ` ${phrase}` : ''}`);
  }
  if (error.sqlState !== null) parts.push(`SQLSTATE ${error.sqlState}`);
  if (error.grpcCode !== null) {
    const name = normaliseGrpcCode(error.grpcCode);
    parts.push(`gRPC ${name ?? String(error.grpcCode)}`);
  }
  if (error.jsonRpcCode !== null) parts.push(`JSON-RPC ${error.jsonRpcCode}`);
  if (error.errno !== null) parts.push(error.errno);
  if (error.name !== null && error.name !== error.errno && !/^error$/i.test(error.name)) parts.push(error.name);
  const retryAfter = headerValue(error.headers, 'retry-after');
  if (retryAfter !== null) parts.push(`(retry-after: ${retryAfter})`);
  return parts;
}

// Whitespace that collapsing and trimming would change: any but a lone inner space.
const MESSY_WHITESPACE = /[^\S ]|\s\s|^\s|\s$/;

/** Cuts to the limit without splitting a marker or a surrogate pair, then proves the cut is still clean. */
function cap(text: string): string {
  if (text.length <= RECEIPT_MAX_CHARS) return text;
  let end = RECEIPT_MAX_CHARS - 1;
  for (;;) {
    let cut = text.slice(0, end);
    const open = cut.lastIndexOf('[REDACTED');
    if (open > cut.lastIndexOf(']')) cut = cut.slice(0, open);
    if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
    const candidate = `${cut.trimEnd()}…`;
    // A cut can leave "password=" dangling, which redact would fill with a marker; step back to the
    // previous space until the truncated line is itself a fixpoint of redact.
    if (redact(candidate) === candidate || cut.length === 0) return candidate;
    const space = cut.trimEnd().lastIndexOf(' ');
    end = space > 0 ? space : 0;
  }
}

/**
 * One short human-readable receipt line for an error, e.g. "HTTP 403 Forbidden: …" or
 * "SQLSTATE 42501: permission denied for table users": codes first, then the message, whitespace
 * collapsed to one line, secrets redacted, capped at RECEIPT_MAX_CHARS.
 */
export function receiptOf(error: RawError): string {
  const head = headOf(error).join(' ');
  const raw = error.message ?? '';
  // Most messages are already one clean line; the replace costs more than the test that skips it.
  const message = MESSY_WHITESPACE.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw;
  const line = head && message ? `${head}: ${message}` : head || message || 'error without details';
  // Memoised: a provider's message repeats from failure to failure, and a clean line is remembered as clean
  // (the same pure redact, without its two trigger scans per failure).
  return cap(redactRepeated(line));
}
