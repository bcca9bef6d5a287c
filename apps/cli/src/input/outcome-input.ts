import { ContractError, parseAgentEvent, type ToolCallOutcome } from '@tokencircuit/contracts';
import { InputLineError, isObject, parseJsonLine } from './bad-line.js';

/** Stand-ins for the envelope of a bare outcome `data` object: only the tenant reaches the key. */
const BARE_ENVELOPE = { id: 'stdin', time: '1970-01-01T00:00:00.000Z' } as const;

/**
 * A JSON line holding either a whole tool_call.outcome agent event or just its `data` object (then
 * `tenant` supplies the key's tenant). Fields of a bare object are named relative to it ("call.tool"),
 * fields of an event as in the event ("data.call.tool").
 */
export function outcomeOfLine(text: string, tenant: string): ToolCallOutcome {
  const value = parseJsonLine(text);
  if (!isObject(value)) throw new InputLineError('expected a JSON object: a tool_call.outcome event or its data');
  if ('type' in value) {
    if (value.type !== 'tool_call.outcome') {
      throw new InputLineError(
        `expected a tool_call.outcome event, got ${JSON.stringify(value.type)} (classify reads outcomes only; simulate reads every type)`,
        'type',
      );
    }
    return parseAgentEvent(value) as ToolCallOutcome;
  }
  if (!('call' in value) && !('status' in value)) {
    throw new InputLineError(
      'expected a tool_call.outcome event (with "type") or its data object (with "call" and "status")',
    );
  }
  try {
    return parseAgentEvent({ type: 'tool_call.outcome', ...BARE_ENVELOPE, tenant, data: value }) as ToolCallOutcome;
  } catch (error) {
    if (error instanceof ContractError && error.field.startsWith('data.')) {
      const field = error.field.slice('data.'.length);
      throw new ContractError(error.code, field, error.message.replace(/^data\./, ''));
    }
    throw error;
  }
}
