import type { AgentEvent, RawError, ToolCall } from '@tokencircuit/contracts';
import { redact } from './redact.js';

/**
 * The event as the backend keeps it: secrets removed from the free text an agent may paste them into
 * (error message, error header values, the SQL statement, a verifier's or operator's words). Applied
 * before an event is stored or folded, so agent_events, receipts and replays all see the same redacted
 * text; redact() is idempotent, so redacting twice changes nothing. Tool arguments are left as they are:
 * they are fingerprinted to judge "structurally changed", and rewriting them would merge distinct attempts.
 */
export function redactEvent(event: AgentEvent): AgentEvent {
  switch (event.type) {
    case 'tool_call.requested': {
      const call = redactCall(event.data.call);
      return call === event.data.call ? event : { ...event, data: { ...event.data, call } };
    }
    case 'tool_call.outcome': {
      const call = redactCall(event.data.call);
      const error = event.data.error === null ? null : redactError(event.data.error);
      return call === event.data.call && error === event.data.error
        ? event
        : { ...event, data: { ...event.data, call, error } };
    }
    case 'verifier.result': {
      const detail = redactText(event.data.detail);
      return detail === event.data.detail ? event : { ...event, data: { ...event.data, detail } };
    }
    case 'operator.resolution': {
      const reason = redact(event.data.reason);
      return reason === event.data.reason ? event : { ...event, data: { ...event.data, reason } };
    }
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

function redactText(text: string | null): string | null {
  return text === null ? null : redact(text);
}

function redactCall(call: ToolCall): ToolCall {
  const sqlStatement = redactText(call.sqlStatement);
  return sqlStatement === call.sqlStatement ? call : { ...call, sqlStatement };
}

function redactError(error: RawError): RawError {
  const message = redactText(error.message);
  let headers = error.headers;
  for (const [name, value] of Object.entries(error.headers)) {
    const clean = redact(value);
    if (clean !== value) headers = { ...headers, [name]: clean };
  }
  return message === error.message && headers === error.headers ? error : { ...error, message, headers };
}
