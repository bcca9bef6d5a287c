import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isReservationDue, reservationExpiresAt } from './expiry.js';
import { charge, committed, expire, lineKey, reserve, settle, type Hold, type LedgerLine } from './ledger.js';

/**
 * The ledger under every interleaving of reserve, settle and expire that fast-check finds: spend passes a hard
 * limit only by what settled calls used beyond their estimates, and what was spent is exactly what was reported.
 */
const KEY = lineKey('run-tokens', 'run-1', 'run');

type Op =
  | { readonly kind: 'reserve'; readonly estimate: number }
  | { readonly kind: 'settle'; readonly pick: number; readonly factor: number }
  | { readonly kind: 'expire'; readonly pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('reserve' as const), estimate: fc.integer({ min: 0, max: 400 }) }),
  // Actual usage from nothing to 1.5 × the estimate: estimates are wrong both ways.
  fc.record({
    kind: fc.constant('settle' as const),
    pick: fc.nat(),
    factor: fc.double({ min: 0, max: 1.5, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('expire' as const), pick: fc.nat() }),
);

interface Outstanding {
  readonly hold: Hold;
}

function run(limit: number, carried: number, ops: readonly Op[]) {
  let lines: readonly LedgerLine[] = [{ key: KEY, meter: 'tokens', limit, spent: 0, reserved: 0, carried }];
  const outstanding: Outstanding[] = [];
  let reported = 0;
  let overrun = 0;
  const errors: number[] = [];
  const check = () => {
    const line = lines[0]!;
    // Reserved is exactly what outstanding reservations hold, and spent exactly what was reported.
    expect(line.reserved).toBe(outstanding.reduce((s, o) => s + o.hold.amount, 0));
    expect(line.spent).toBe(reported);
    // Past the limit only by the estimates' errors of settled calls.
    expect(committed(line)).toBeLessThanOrEqual(Math.max(limit, carried) + overrun);
  };
  for (const step of ops) {
    if (step.kind === 'reserve') {
      const hold: Hold = { line: KEY, meter: 'tokens', amount: step.estimate };
      const outcome = reserve(lines, [hold]);
      if (outcome.kind === 'reserved') {
        expect(committed(lines[0]!) + step.estimate).toBeLessThanOrEqual(limit);
        lines = outcome.lines;
        outstanding.push({ hold });
      } else {
        expect(committed(lines[0]!) + step.estimate).toBeGreaterThan(limit);
      }
    } else if (outstanding.length > 0) {
      const [taken] = outstanding.splice(step.pick % outstanding.length, 1);
      if (step.kind === 'settle') {
        const actual = Math.round(taken!.hold.amount * step.factor);
        lines = settle(lines, [taken!.hold], { tokens: actual, cost: 0, calls: 0 });
        reported += actual;
        overrun += Math.max(0, actual - taken!.hold.amount);
        errors.push(Math.max(0, actual - taken!.hold.amount));
      } else {
        lines = expire(lines, [taken!.hold]);
      }
    }
    check();
  }
  return { line: lines[0]!, errors };
}

describe('the spend ledger under any interleaving', () => {
  it('never lets spend pass the hard limit by more than the estimates’ errors, and spent equals reported usage', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.array(op, { maxLength: 80 }), (limit, ops) => {
        run(limit, 0, ops);
      }),
      { numRuns: 400 },
    );
  });

  it('with estimates never too low, spend never passes the limit at all', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(
          op.map((o) => (o.kind === 'settle' ? { ...o, factor: Math.min(o.factor, 1) } : o)),
          { maxLength: 80 },
        ),
        (limit, ops) => {
          const { line } = run(limit, 0, ops);
          expect(line.spent).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('one call at a time (an agent loop) passes the limit by at most one estimate’s error', () => {
    const loopStep = fc.record({
      estimate: fc.integer({ min: 1, max: 400 }),
      factor: fc.double({ min: 0, max: 1.5, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.array(loopStep, { maxLength: 60 }),
        (limit, carried, steps) => {
          const ops = steps.flatMap((s): Op[] => [
            { kind: 'reserve', estimate: s.estimate },
            { kind: 'settle', pick: 0, factor: s.factor },
          ]);
          const { line, errors } = run(limit, Math.min(carried, limit), ops);
          expect(line.carried + line.spent).toBeLessThanOrEqual(limit + Math.max(0, ...errors));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reserves on every covering line or on none', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ limit: fc.integer({ min: 1, max: 1000 }), spent: fc.integer({ min: 0, max: 1000 }) }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 0, max: 500 }),
        (specs, estimate) => {
          const lines: LedgerLine[] = specs.map((s, i) => ({
            key: `l${i}`,
            meter: 'cost',
            limit: s.limit,
            spent: s.spent,
            reserved: 0,
            carried: 0,
          }));
          const holds = lines.map((l): Hold => ({ line: l.key, meter: 'cost', amount: estimate }));
          const outcome = reserve(lines, holds);
          const fits = lines.every((l) => committed(l) + estimate <= l.limit);
          expect(outcome.kind).toBe(fits ? 'reserved' : 'refused');
          if (outcome.kind === 'reserved')
            expect(outcome.lines.map((l) => l.reserved)).toEqual(lines.map(() => estimate));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('with a TTL clock, late settles and sweeps: spent is what was reported, and only errors pass the limit', () => {
    // Holds taken at a time, a sweep that expires every due hold (isReservationDue), and outcomes that may come
    // after their hold expired (a late settle spends what it reports, its hold already released). Spend passes
    // the limit by no more than the settled calls' errors, where a late call's whole usage is its error.
    const ttl = 100;
    const timedOp = fc.oneof(
      fc.record({ kind: fc.constant('reserve' as const), estimate: fc.integer({ min: 0, max: 400 }) }),
      fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 80 }) }),
      fc.record({ kind: fc.constant('sweep' as const) }),
      fc.record({
        kind: fc.constant('report' as const),
        pick: fc.nat(),
        factor: fc.double({ min: 0, max: 1.5, noNaN: true }),
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.array(timedOp, { maxLength: 100 }), (limit, ops) => {
        let lines: readonly LedgerLine[] = [{ key: KEY, meter: 'tokens', limit, spent: 0, reserved: 0, carried: 0 }];
        let now = 0;
        const calls: { hold: Hold; expiresAtMs: number; state: 'held' | 'expired' | 'settled' }[] = [];
        let reported = 0;
        let errors = 0;
        for (const step of ops) {
          if (step.kind === 'tick') now += step.ms;
          else if (step.kind === 'reserve') {
            const hold: Hold = { line: KEY, meter: 'tokens', amount: step.estimate };
            const outcome = reserve(lines, [hold]);
            if (outcome.kind === 'reserved') {
              lines = outcome.lines;
              calls.push({ hold, expiresAtMs: reservationExpiresAt({ reservationTtlMs: ttl }, now), state: 'held' });
            }
          } else if (step.kind === 'sweep') {
            for (const c of calls.filter((c) => isReservationDue(c, now))) {
              lines = expire(lines, [c.hold]);
              c.state = 'expired';
            }
          } else {
            const open = calls.filter((c) => c.state !== 'settled');
            if (open.length === 0) continue;
            const c = open[step.pick % open.length]!;
            const actual = Math.round(c.hold.amount * step.factor);
            if (c.state === 'held') {
              lines = settle(lines, [c.hold], { tokens: actual, cost: 0, calls: 0 });
              errors += Math.max(0, actual - c.hold.amount);
            } else {
              lines = charge(lines, [KEY], { tokens: actual, cost: 0, calls: 0 });
              errors += actual;
            }
            c.state = 'settled';
            reported += actual;
          }
          const line = lines[0]!;
          expect(line.spent).toBe(reported);
          expect(line.reserved).toBe(calls.filter((c) => c.state === 'held').reduce((s, c) => s + c.hold.amount, 0));
          expect(committed(line)).toBeLessThanOrEqual(limit + errors);
        }
      }),
      { numRuns: 300 },
    );
  });
});
