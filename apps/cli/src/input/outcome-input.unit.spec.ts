import { describe, expect, it } from 'vitest';
import { badLineOf } from './bad-line.js';
import { outcomeOfLine } from './outcome-input.js';

const problem = (text: string) => {
  try {
    outcomeOfLine(text, 'acme');
  } catch (error) {
    return badLineOf(7, error);
  }
  throw new Error('expected the line to be refused');
};

describe('outcomeOfLine: a line is a tool_call.outcome event or its data object, or a named problem', () => {
  it('a line that is not JSON names the line, not a field', () => {
    expect(problem('{"call": ')).toEqual({ line: 7, error: expect.stringMatching(/^not JSON: /), field: '(line)' });
  });

  it('an event of another type is refused on its "type" field', () => {
    expect(problem('{"type":"verifier.result"}')).toMatchObject({
      field: 'type',
      error: expect.stringMatching(/expected a tool_call.outcome event/),
    });
  });

  it('a bad field of a whole event is named as in the event', () => {
    expect(
      problem(
        '{"type":"tool_call.outcome","id":"e","tenant":"acme","time":"2026-03-02T09:00:00Z","data":{"status":"failed"}}',
      ),
    ).toMatchObject({
      field: 'data.call',
    });
  });

  it('a bad field of a bare data object is named relative to it', () => {
    expect(
      problem(
        '{"call":{"agent":"a","run":"r","callId":"c","attempt":0,"intentId":"i","tool":"t","effect":"read"},"status":"failed","error":{}}',
      ),
    ).toMatchObject({
      field: 'call.attempt',
      error: expect.stringMatching(/^call\.attempt: /),
    });
  });

  it('JSON that is neither an event nor outcome data says what was expected', () => {
    expect(problem('[1,2]')).toMatchObject({ field: '(line)', error: expect.stringMatching(/expected a JSON object/) });
    expect(problem('{"hello":"world"}')).toMatchObject({
      field: '(line)',
      error: expect.stringMatching(/with "call" and "status"/),
    });
  });
});
