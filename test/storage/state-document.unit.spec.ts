import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGovernance, DEFAULT_CONFIG, type FailureState } from '@tokencircuit/governance';
import { generateTrace } from '@tokencircuit/testing';
import {
  isWholeStateDocument,
  stateDocumentText,
  stateKeyColumnsOf,
  stateOfRow,
} from '../../libs/storage/src/state/state-document.js';

const governance = createGovernance(DEFAULT_CONFIG);
const states = [...governance.replay(generateTrace({ events: 3_000, seed: 5 })).states.values()];

/** What a reader gets back: the stored text parsed, made whole with the row's key columns. */
const readBack = (state: FailureState) => stateOfRow(JSON.parse(stateDocumentText(state)), stateKeyColumnsOf(state));

describe('stateDocumentText / stateOfRow: a state stored without the key its columns hold', () => {
  it('gives every state of a trace back member for member, and stores none of them with its key', () => {
    expect(states.length).toBeGreaterThan(100);
    for (const state of states) {
      const text = stateDocumentText(state);
      expect(isWholeStateDocument(JSON.parse(text))).toBe(false);
      expect(text.length).toBeLessThan(JSON.stringify(state).length - 100);
      expect(JSON.stringify(readBack(state))).toBe(JSON.stringify(state));
    }
  });

  it('gives back any key, whatever its identifiers hold (quotes, separators, non-ASCII, nulls)', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('"', '\\', 'a|b', '~', '\u2028', 'é', '😀'));
    fc.assert(
      fc.property(
        fc.constantFrom(...states),
        fc.record({ tenant: text, run: fc.option(text), principal: fc.option(text), resourceId: fc.option(text) }),
        fc.record({ tool_name: text, resource_class: fc.option(text), auth_scope: fc.option(text) }),
        (state, place, rfc) => {
          const key = { ...state.key, ...place, equivalenceKey: { ...state.key.equivalenceKey, ...rfc } };
          const odd = { ...state, keyId: `${state.keyId}|${place.tenant}`, key } as FailureState;
          expect(JSON.stringify(readBack(odd))).toBe(JSON.stringify(odd));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stores a state whole when its columns would not give its key back exactly, and reads a whole document as it is', () => {
    const [state] = states;
    // A key whose members are in another order, or that lacks one (undefined, not null): its own text, whole.
    const { tenant, ...rest } = state!.key;
    const reordered = { ...state!, key: { ...rest, tenant } } as FailureState;
    const lacking = { ...state!, key: { ...state!.key, principal: undefined } } as unknown as FailureState;
    for (const odd of [reordered, lacking]) {
      expect(stateDocumentText(odd)).toBe(JSON.stringify(odd));
      expect(JSON.stringify(readBack(odd))).toBe(JSON.stringify(odd));
    }
    // A document an older build wrote whole is read as it is, whatever the columns say.
    const whole = JSON.parse(JSON.stringify(state));
    expect(stateOfRow(whole, { ...stateKeyColumnsOf(state!), tenant: 'other' })).toBe(whole);
  });
});
