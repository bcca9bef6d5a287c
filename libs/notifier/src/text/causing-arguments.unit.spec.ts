import { describe, expect, it } from 'vitest';
import { causingArguments } from './causing-arguments.js';

const event = (data: unknown) => ({ cloudEvent: { specversion: '1.0', type: 'x', data } });

describe('causingArguments', () => {
  it('takes the newest causing event that carries a call', () => {
    expect(
      causingArguments([
        event({ call: { tool: 'refund', arguments: { charge_id: 'ch_1' } } }),
        event({ call: { tool: 'refund', arguments: { charge_id: 'ch_2' } } }),
        event({ verifier: 'read_after_write', finding: 'inconclusive' }),
      ]),
    ).toEqual({ charge_id: 'ch_2' });
  });

  it('null when no causing event has a call with arguments', () => {
    expect(causingArguments([])).toBeNull();
    expect(causingArguments([event(null), event({ call: { arguments: [1] } }), event('text')])).toBeNull();
  });
});
