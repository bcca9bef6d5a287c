import { describe, expect, it } from 'vitest';
import { ContractError, parseAgentEvent } from './agent-event-envelope.js';
import { LIMITS } from './limits.js';
import { permissionDenied } from './spec-support/sample-events.js';
import { thrown } from './spec-support/thrown.js';
import { resolution } from './testing/producer-input.js';
import { stateKeyBytes } from './state-key-size.js';

/** permissionDenied with key fields padded with `filler` so that together they take exactly `bytes` bytes. */
function withKeyBytes(bytes: number, filler = 'x'): unknown {
  const event = structuredClone(permissionDenied) as any;
  const call = event.data.call;
  Object.assign(call, { resourceId: '', principal: 'p', authScope: null, resourceClass: null });
  let missing = bytes - stateKeyBytes(parseAgentEvent(event));
  const fillerBytes = Buffer.byteLength(filler, 'utf8') + (/[%|=~]/.test(filler) ? 2 : 0);
  for (const [field, chars] of [
    ['resourceId', 1024],
    ['principal', 255],
    ['authScope', 256],
    ['resourceClass', 256],
  ] as const) {
    const count = Math.min(chars, Math.floor(missing / fillerBytes));
    if (count > 0) call[field] = (call[field] ?? '') + filler.repeat(count);
    missing -= count * fillerBytes;
  }
  call.tool += 'x'.repeat(missing); // the rest, below one filler's width
  return event;
}

describe('the fields of a failure-state key fit a database key', () => {
  it(`accepts ${LIMITS.stateKeyBytes} bytes and refuses one more, counting UTF-8 bytes and escapes`, () => {
    for (const filler of ['x', '€', '|']) {
      expect(stateKeyBytes(parseAgentEvent(withKeyBytes(LIMITS.stateKeyBytes, filler)))).toBe(LIMITS.stateKeyBytes);
      const error = thrown(ContractError, () => parseAgentEvent(withKeyBytes(LIMITS.stateKeyBytes + 1, filler)));
      expect(error).toMatchObject({ code: 'invalid_field', field: 'data.call' });
      expect(error.message).toContain(`${LIMITS.stateKeyBytes + 1} bytes`);
    }
  });

  it('counts nothing for events that make no key', () => {
    const reset = parseAgentEvent(
      resolution(
        't',
        { keyId: 'k', resolution: 'reset', by: 'ops', reason: 'r' },
        { id: 'e', time: '2025-01-01T00:00:00Z' },
      ),
    );
    expect(stateKeyBytes(reset)).toBe(0);
  });
});
