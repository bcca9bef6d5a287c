import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '@tokencircuit/governance';
import {
  chainDocument,
  chainHash,
  verifyChain,
  type ChainedIntervention,
  type InterventionContent,
} from './hash-chain.js';

const content = (id: string, overrides: Partial<InterventionContent> = {}): InterventionContent => ({
  id,
  tenant: 'acme',
  run: 'run-1',
  agent: 'agent-7',
  level: 'block',
  failureClass: 'permission',
  keyId: 'fleet:acme:svc-reporting:sql_namespace/finance',
  toolName: 'sql.query',
  resourceClass: 'sql_namespace',
  authScope: 'finance:read',
  principal: 'svc-reporting',
  resourceId: 'finance',
  nextAction: 'stop_request_authorization',
  artifact: { failure_class: 'permission', retry_count: 0, sample_receipts: ['permission denied for schema finance'] },
  policyVersion: 'sha256:policy',
  stateVersion: 1,
  causingEventIds: [`evt-${id}`],
  issuedAt: '2026-01-02T03:04:05.678Z',
  ...overrides,
});

/** Builds a chain the way appendInterventions does: each row links to the previous row's hash. */
function chainOf(rows: readonly InterventionContent[], firstSeq = 1): ChainedIntervention[] {
  const chain: ChainedIntervention[] = [];
  for (const [index, row] of rows.entries()) {
    const prevHash = chain.at(-1)?.hash ?? null;
    chain.push({ ...row, seq: firstSeq + index * 3, prevHash, hash: chainHash(row, prevHash) });
  }
  return chain;
}

describe('chainHash', () => {
  it('is the lower-case sha256 hex of the canonical document', () => {
    expect(chainHash(content('i-1'), null)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('commits to prev_hash, so the same content at another place in the chain hashes differently', () => {
    expect(chainHash(content('i-1'), null)).not.toBe(chainHash(content('i-1'), 'a'.repeat(64)));
  });

  it('keeps null fields in the document, so a null is never confused with a missing field', () => {
    expect(JSON.parse(chainDocument(content('i-1', { run: null }), null))).toMatchObject({
      run: null,
      prev_hash: null,
    });
  });

  it('does not depend on the key order inside the artifact (jsonb reorders keys)', () => {
    const artifact = { b: 1, a: { d: 2, c: 3 } };
    const reordered = { a: { c: 3, d: 2 }, b: 1 };
    expect(chainHash(content('i-1', { artifact }), null)).toBe(
      chainHash(content('i-1', { artifact: reordered }), null),
    );
  });

  it('changes when any content field changes', () => {
    const base = content('i-1');
    const changes: Partial<InterventionContent>[] = [
      { id: 'i-2' },
      { tenant: 'other' },
      { run: null },
      { agent: 'agent-8' },
      { level: 'page' },
      { failureClass: 'invariant_violation' },
      { keyId: 'k2' },
      { toolName: 'http.get' },
      { resourceClass: null },
      { authScope: 'finance:write' },
      { principal: 'someone-else' },
      { resourceId: 'hr' },
      { nextAction: 'fail_closed_page_human' },
      { artifact: { ...base.artifact, retry_count: 1 } },
      { policyVersion: 'sha256:other' },
      { stateVersion: 2 },
      { causingEventIds: ['evt-i-1', 'evt-extra'] },
      { issuedAt: '2026-01-02T03:04:05.679Z' },
    ];
    const original = chainHash(base, null);
    for (const change of changes) {
      expect(chainHash({ ...base, ...change }, null), JSON.stringify(change)).not.toBe(original);
    }
  });
});

describe('chainDocument with the artifact already canonical', () => {
  const optional = fc.option(fc.string({ unit: 'binary-ascii' }), { nil: null });
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary-ascii' }));
  const rows = fc.record({
    id: text,
    tenant: text,
    run: fc.option(text, { nil: null }),
    agent: fc.option(text, { nil: null }),
    level: text,
    failureClass: text,
    keyId: text,
    toolName: text,
    resourceClass: optional,
    authScope: optional,
    principal: fc.option(text, { nil: null }),
    resourceId: optional,
    nextAction: text,
    artifact: fc.dictionary(text, fc.jsonValue()),
    policyVersion: text,
    stateVersion: fc.nat(),
    causingEventIds: fc.array(text),
    issuedAt: text,
  });

  it('is byte for byte the document written in one pass, for any content', () => {
    fc.assert(
      fc.property(
        rows,
        fc.option(fc.string({ unit: fc.constantFrom(...'0123456789abcdef') }), { nil: null }),
        (row, prevHash) => {
          const content = row as InterventionContent;
          expect(chainDocument(content, prevHash, canonicalJson(content.artifact))).toBe(
            chainDocument(content, prevHash),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('hashes as the one-pass document does for the fixture rows', () => {
    const row = content('i-9', { agent: null, run: null });
    expect(chainHash(row, 'f'.repeat(64), canonicalJson(row.artifact))).toBe(chainHash(row, 'f'.repeat(64)));
  });
});

describe('verifyChain', () => {
  const chain = chainOf([content('i-1'), content('i-2'), content('i-3'), content('i-4')]);

  it('accepts an intact chain and counts every row', () => {
    expect(verifyChain(chain)).toEqual({ ok: true, checked: 4 });
  });

  it('accepts an empty chain', () => {
    expect(verifyChain([])).toEqual({ ok: true, checked: 0 });
  });

  it('detects an edited row and names it', () => {
    const edited = chain.map((row) => (row.seq === chain[2]!.seq ? { ...row, level: 'advise' } : row));
    expect(verifyChain(edited)).toMatchObject({ ok: false, checked: 2, firstBrokenSeq: chain[2]!.seq });
    expect(verifyChain(edited)).toMatchObject({ reason: expect.stringContaining('does not match its hash') });
  });

  it('detects a row removed from the middle', () => {
    const removed = [chain[0]!, chain[2]!, chain[3]!];
    expect(verifyChain(removed)).toMatchObject({ ok: false, checked: 1, firstBrokenSeq: chain[2]!.seq });
    expect(verifyChain(removed)).toMatchObject({ reason: expect.stringContaining('removed, inserted or reordered') });
  });

  it('detects a removed genesis row', () => {
    expect(verifyChain(chain.slice(1))).toMatchObject({ ok: false, checked: 0, firstBrokenSeq: chain[1]!.seq });
  });

  it('detects reordered rows', () => {
    const swapped = [chain[0]!, { ...chain[2]!, seq: chain[1]!.seq }, { ...chain[1]!, seq: chain[2]!.seq }, chain[3]!];
    expect(verifyChain(swapped)).toMatchObject({ ok: false, firstBrokenSeq: chain[1]!.seq });
  });

  it('detects a re-hashed edit, because the next row still links to the old hash', () => {
    const target = chain[1]!;
    const forged = { ...target, level: 'advise' };
    const rehashed = { ...forged, hash: chainHash(forged, forged.prevHash) };
    const tampered = [chain[0]!, rehashed, chain[2]!, chain[3]!];
    expect(verifyChain(tampered)).toMatchObject({ ok: false, checked: 2, firstBrokenSeq: chain[2]!.seq });
  });

  it('refuses rows of two tenants in one chain', () => {
    const mixed = [chain[0]!, { ...chain[1]!, tenant: 'other' }];
    expect(verifyChain(mixed)).toMatchObject({
      ok: false,
      firstBrokenSeq: chain[1]!.seq,
      reason: expect.stringContaining('tenant'),
    });
  });

  it('refuses rows out of seq order', () => {
    const backwards = [chain[0]!, { ...chain[1]!, seq: 0 }];
    expect(verifyChain(backwards)).toMatchObject({ ok: false, reason: expect.stringContaining('does not follow') });
  });

  it('continues from an anchor, so a long chain can be verified page by page', () => {
    const anchor = chain[1]!;
    expect(verifyChain(chain.slice(2), anchor)).toEqual({ ok: true, checked: 2 });
    expect(verifyChain(chain.slice(2))).toMatchObject({ ok: false, checked: 0 });
  });

  it('finds any single-field edit anywhere in a chain', () => {
    const rows = chainOf(Array.from({ length: 6 }, (_, i) => content(`i-${i}`)));
    fc.assert(
      fc.property(
        fc.nat({ max: rows.length - 1 }),
        fc.constantFrom<keyof InterventionContent>('run', 'level', 'principal', 'toolName', 'stateVersion', 'issuedAt'),
        (index, field) => {
          const original = rows[index]!;
          const value =
            field === 'stateVersion'
              ? original.stateVersion + 1
              : field === 'issuedAt'
                ? '2030-01-01T00:00:00.000Z'
                : 'forged';
          const tampered = rows.map((row, i) => (i === index ? { ...row, [field]: value } : row));
          expect(verifyChain(tampered)).toMatchObject({ ok: false, checked: index, firstBrokenSeq: original.seq });
        },
      ),
    );
  });
});
