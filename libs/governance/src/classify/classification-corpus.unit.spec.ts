import { readdirSync, readFileSync } from 'node:fs';
import { FailureClassSchema, ToolCallOutcomeDataSchema } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { classify } from './classify.js';
import { sideEffectBoundary } from './side-effect-boundary.js';

// The real-world corpus: one documented error per case, with where its meaning is documented.
const FIXTURES = new URL('../../fixtures/classification/', import.meta.url);

const CaseSchema = z.object({
  name: z.string().min(1),
  source: z.string().regex(/^https:\/\//, 'source must be the URL of the documentation'),
  /** What in the outcome decides the class, for cases whose context (contract v2) matters. */
  context: z.string().optional(),
  /** high = the code alone decides; context = the same error means different classes in other contexts. */
  kind: z.enum(['high', 'context']).default('high'),
  outcome: z.object({ call: z.record(z.string(), z.unknown()) }).loose(),
  expect: z.object({
    failureClass: FailureClassSchema,
    reason: z.string().optional(),
    sideEffectBoundary: z.boolean().optional(),
    evidenceIncludes: z.array(z.string()).optional(),
  }),
});
const FileSchema = z.object({
  description: z.string(),
  baseCall: z.record(z.string(), z.unknown()),
  cases: z.array(CaseSchema).min(1),
});

const files = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ file: f, ...FileSchema.parse(JSON.parse(readFileSync(new URL(f, FIXTURES), 'utf8'))) }));

type Case = z.infer<typeof CaseSchema>;

const outcomeOf = (baseCall: Record<string, unknown>, c: Case) =>
  ToolCallOutcomeDataSchema.parse({ ...c.outcome, call: { ...baseCall, ...c.outcome.call } });

/** Accuracy of one group of cases: right / total. */
interface Tally {
  right: number;
  total: number;
}
const tallyInto = (map: Map<string, Tally>, key: string, right: boolean) => {
  const t = map.get(key) ?? { right: 0, total: 0 };
  t.total += 1;
  if (right) t.right += 1;
  map.set(key, t);
};
const percent = ({ right, total }: Tally) => `${((100 * right) / total).toFixed(1)} % (${right}/${total})`;
/** The documentation site a case cites: its host, the "source" the report groups by. */
const hostOf = (url: string) => new URL(url).host.replace(/^www\./, '');

describe('classification corpus', () => {
  it('holds at least 400 documented cases with distinct names', () => {
    const names = files.flatMap((f) => f.cases.map((c) => `${f.file}: ${c.name}`));
    expect(names.length).toBeGreaterThanOrEqual(400);
    expect(new Set(names).size).toBe(names.length);
  });

  it('reports accuracy per class, per kind and per source (docs/classification.md)', () => {
    const byClass = new Map<string, Tally>();
    const byKind = new Map<string, Tally>();
    const bySource = new Map<string, Tally>();
    const misses: string[] = [];
    for (const { file, baseCall, cases } of files) {
      for (const c of cases) {
        const got = classify(outcomeOf(baseCall, c))?.failureClass ?? null;
        const right = got === c.expect.failureClass;
        tallyInto(byClass, c.expect.failureClass, right);
        tallyInto(byKind, c.kind, right);
        tallyInto(bySource, hostOf(c.source), right);
        if (!right) misses.push(`${file}: ${c.name}: expected ${c.expect.failureClass}, got ${String(got)}`);
      }
    }
    const table = (title: string, map: Map<string, Tally>) =>
      [
        `${title}:`,
        ...[...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, t]) => `  ${k}: ${percent(t)}`),
      ].join('\n');
    console.log([table('per class', byClass), table('per kind', byKind), table('per source', bySource)].join('\n'));
    // Every class of the RFC is covered, and both kinds are.
    expect([...byClass.keys()].sort()).toEqual(FailureClassSchema.options.slice().sort());
    expect(byKind.get('context')?.total ?? 0).toBeGreaterThanOrEqual(60);
    expect(misses).toEqual([]);
  });

  it('docs/classification.md states the figures this corpus gives (per class, per kind, case counts)', () => {
    const docs = readFileSync(new URL('../../../../docs/classification.md', import.meta.url), 'utf8');
    const byClass = new Map<string, Tally>();
    const byKind = new Map<string, Tally>();
    for (const { baseCall, cases } of files) {
      for (const c of cases) {
        const right = classify(outcomeOf(baseCall, c))?.failureClass === c.expect.failureClass;
        tallyInto(byClass, c.expect.failureClass, right);
        tallyInto(byKind, c.kind, right);
      }
    }
    const stated = (label: string): Tally | null => {
      const m = new RegExp(
        `\\|\\s*(?:\\*\\*)?${label}(?:\\*\\*)?\\s*\\|\\s*(?:\\*\\*)?[\\d.]+ % \\((\\d+)/(\\d+)\\)`,
      ).exec(docs);
      return m ? { right: Number(m[1]), total: Number(m[2]) } : null;
    };
    for (const [cls, tally] of byClass) expect(stated(cls), `docs row for ${cls}`).toEqual(tally);
    expect(stated('high-confidence')).toEqual(byKind.get('high'));
    expect(stated('context-dependent')).toEqual(byKind.get('context'));
    const total = files.reduce((n, f) => n + f.cases.length, 0);
    expect(docs).toContain(`${total} cases`);
    expect(docs).toContain(`${byKind.get('context')?.total ?? 0} cases are`);
  });

  it('holds context-dependent groups: one error, different classes in different contexts', () => {
    // Group by the error itself (provider, codes, message): a group with two classes is a pair.
    const groups = new Map<string, Set<string>>();
    for (const { baseCall, cases } of files) {
      for (const c of cases.filter((k) => k.kind === 'context')) {
        const o = outcomeOf(baseCall, c);
        const key = JSON.stringify([
          o.provider,
          o.error?.code,
          o.error?.sqlState,
          o.error?.httpStatus,
          o.error?.message,
        ]);
        groups.set(key, (groups.get(key) ?? new Set()).add(c.expect.failureClass));
      }
    }
    expect([...groups.values()].filter((classes) => classes.size > 1).length).toBeGreaterThanOrEqual(15);
  });

  for (const { file, description, baseCall, cases } of files) {
    describe(`${file} — ${description}`, () => {
      for (const c of cases) {
        it(c.name, () => {
          const outcome = outcomeOf(baseCall, c);
          const classification = classify(outcome);

          expect(classification, `source: ${c.source}`).not.toBeNull();
          expect(classification?.failureClass).toBe(c.expect.failureClass);
          if (c.expect.reason !== undefined) expect(classification?.reason).toBe(c.expect.reason);
          if (c.expect.sideEffectBoundary !== undefined) {
            expect(classification?.sideEffect.value).toBe(c.expect.sideEffectBoundary);
            expect(sideEffectBoundary(outcome.call, outcome).value).toBe(c.expect.sideEffectBoundary);
          }
          for (const fact of c.expect.evidenceIncludes ?? [])
            expect(classification?.sideEffect.evidence).toContain(fact);
        });
      }
    });
  }
});
