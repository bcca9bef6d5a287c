import { describe, expect, it } from 'vitest';
import { refundArguments } from '../spec-support/sample-steps.js';
import { ARGUMENT_LIMITS, argumentsLine, argumentsObject, identifyingArguments } from './identifying-arguments.js';

describe('identifyingArguments: which refund, without the secrets', () => {
  it('puts identifying names first, keeps the call order otherwise, and redacts secrets', () => {
    const { shown, more } = identifyingArguments(refundArguments);
    expect(shown.map((a) => a.name)).toEqual(['charge_id', 'order_id', 'amount_cents', 'currency', 'api_key', 'note']);
    expect(more).toBe(0);
    expect(argumentsObject({ shown, more })).toMatchObject({
      charge_id: 'ch_3PqK8a2eZvKYlo2C1x0',
      amount_cents: '4999',
    });
    const line = argumentsLine({ shown, more });
    expect(line).toMatch(/^charge_id=ch_3PqK8a2eZvKYlo2C1x0, order_id=ord_20261201_0042, amount_cents=4999/);
    expect(line).not.toContain('sk_live_51HxAbCdEfGhIjKlMnOpQrStUv');
  });

  it('recognises identifying names in the usual casings, and not words that merely end in "id"', () => {
    const { shown } = identifyingArguments({
      paid: true,
      valid: 1,
      orderId: 'o',
      'refund-ref': 'r',
      invoiceNo: 7,
      id: 1,
    });
    expect(shown.map((a) => a.name)).toEqual(['orderId', 'refund-ref', 'invoiceNo', 'id', 'paid', 'valid']);
  });

  it('credentials inside values go too (the backend redaction, not a copy of it)', () => {
    const { shown } = identifyingArguments({ url: 'https://bob:hunter2-very-secret@db.example.com/x' });
    expect(shown[0]!.value).not.toContain('hunter2-very-secret');
  });

  it('cuts long values and names, counts what it leaves out, shows nested values as JSON', () => {
    const args: Record<string, unknown> = { a_id: 'x'.repeat(500), nested: { b: [1, 2] } };
    for (let i = 0; i < 10; i++) args[`k${i}`] = i;
    const { shown, more } = identifyingArguments(args);
    expect(shown).toHaveLength(ARGUMENT_LIMITS.count);
    expect(more).toBe(12 - ARGUMENT_LIMITS.count);
    expect(shown[0]!.value.length).toBe(ARGUMENT_LIMITS.valueChars);
    expect(shown[1]).toEqual({ name: 'nested', value: '{"b":[1,2]}' });
    expect(argumentsLine({ shown, more })).toMatch(/\(\+6 more\)$/);
  });

  it('a value of emoji is cut between characters, never inside one', () => {
    const { shown } = identifyingArguments({ note: '😀'.repeat(100) });
    expect(shown[0]!.value.endsWith('😀…')).toBe(true);
  });

  it('no arguments known: nothing shown', () => {
    expect(identifyingArguments(null)).toEqual({ shown: [], more: 0 });
    expect(identifyingArguments({})).toEqual({ shown: [], more: 0 });
  });
});
