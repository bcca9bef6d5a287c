import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { appendInterventions } from '../../../libs/storage/src/append-interventions.js';
import { interventionFor } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { chainHeads } from '../../../libs/storage/src/anchors/read-chain-heads.js';

describe('chainHeads (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_chain_heads');
  });
  afterAll(async () => db?.drop());

  it("reads each tenant's newest intervention; a tenant without one is absent", async () => {
    const session = pgDatabase(db.pool);
    const appended = await appendInterventions(session, [
      interventionFor('acme', 'i-1'),
      interventionFor('globex', 'i-2'),
      interventionFor('acme', 'i-3'),
    ]);
    const [, globex, acme] = appended.map((a) => a.intervention);
    expect(await chainHeads(session, ['acme', 'globex', 'initech'])).toEqual(
      new Map([
        ['acme', { seq: acme!.seq, hash: acme!.hash }],
        ['globex', { seq: globex!.seq, hash: globex!.hash }],
      ]),
    );
    expect(await chainHeads(session, [])).toEqual(new Map());
  });
});
