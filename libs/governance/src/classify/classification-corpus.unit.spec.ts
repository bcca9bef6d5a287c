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

describe('classification corpus', () => {
  it('holds at least 120 documented cases with distinct names', () => {
    const names = files.flatMap((f) => f.cases.map((c) => `${f.file}: ${c.name}`));
    expect(names.length).toBeGreaterThanOrEqual(120);
    expect(new Set(names).size).toBe(names.length);
  });

  for (const { file, description, baseCall, cases } of files) {
    describe(`${file} — ${description}`, () => {
      for (const c of cases) {
        it(c.name, () => {
          const outcome = ToolCallOutcomeDataSchema.parse({ ...c.outcome, call: { ...baseCall, ...c.outcome.call } });
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
