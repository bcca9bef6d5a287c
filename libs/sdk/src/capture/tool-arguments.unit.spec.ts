import { describe, expect, it } from 'vitest';
import { LIMITS } from '@tokencircuit/contracts';
import { defaultArguments, recordableArguments } from './tool-arguments.js';

describe('defaultArguments: which parameters are the model-chosen arguments', () => {
  it('a plain-object first parameter is the arguments; runtime options after it are not', () => {
    const input = { city: 'Oslo' };
    expect(defaultArguments([input, { toolCallId: 'call_1', abortSignal: new AbortController().signal }])).toBe(input);
  });

  it('anything else is recorded positionally, and no parameters is {}', () => {
    expect(defaultArguments(['SELECT 1', [42]])).toEqual({ args: ['SELECT 1', [42]] });
    expect(defaultArguments([new Date(0)])).toEqual({ args: [new Date(0)] });
    expect(defaultArguments([])).toEqual({});
  });
});

describe('recordableArguments: JSON the contract accepts', () => {
  it('turns BigInt into text, drops functions, marks cycles', () => {
    const cyclic: Record<string, unknown> = { id: 7n, callback: () => 1 };
    cyclic.self = cyclic;
    expect(recordableArguments(cyclic)).toEqual({ id: '7', self: '[Circular]' });
  });

  it('replaces oversized arguments by a stand-in that still tells different arguments apart', () => {
    const big = (fill: string) => ({ document: fill.repeat(LIMITS.argumentsBytes) });
    const a = recordableArguments(big('a'));
    const b = recordableArguments(big('b'));
    expect(Buffer.byteLength(JSON.stringify(a))).toBeLessThan(LIMITS.argumentsBytes);
    expect(a).toMatchObject({ $truncated: { bytes: LIMITS.argumentsBytes + 15 } });
    expect(a).not.toEqual(b);
    expect(recordableArguments(big('a'))).toEqual(a);
  });
});
