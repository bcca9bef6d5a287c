import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { appendInterventions } from '../../../libs/storage/src/append-interventions.js';
import { interventionFor, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { readInterventionChain } from '../../../libs/storage/src/read-intervention-chain.js';

describe('readInterventionChain (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_intervention_chain');
  });
  afterAll(async () => db?.drop());

  it("reads one tenant's interventions in seq order, a page after a seq, also under the tenant's row-level security", async () => {
    const appended = await appendInterventions(pgDatabase(db.pool), [
      interventionFor('acme', 'c-1'),
      interventionFor('globex', 'c-2'),
      interventionFor('acme', 'c-3'),
      interventionFor('acme', 'c-4'),
    ]);
    const acme = appended.filter((a) => a.intervention.tenant === 'acme').map((a) => a.intervention);
    expect(await readInterventionChain(pgDatabase(db.pool), 'acme')).toEqual(acme);
    const page = await readInterventionChain(pgDatabase(db.pool), 'acme', { afterSeq: acme[0]!.seq, limit: 1 });
    expect(page.map((row) => row.id)).toEqual(['c-3']);
    expect(
      (await readAs(db.pool, 'acme', (session) => readInterventionChain(session, 'acme'))).map((r) => r.id),
    ).toEqual(['c-1', 'c-3', 'c-4']);
    expect(await readAs(db.pool, 'acme', (session) => readInterventionChain(session, 'globex'))).toEqual([]);
  });
});
