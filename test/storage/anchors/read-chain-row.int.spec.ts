import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { appendInterventions } from '../../../libs/storage/src/append-interventions.js';
import { interventionFor } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { chainRowAt } from '../../../libs/storage/src/anchors/read-chain-row.js';

describe('chainRowAt (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_read_chain_row');
  });
  afterAll(async () => db?.drop());

  it("reads the seq and hash of a tenant's intervention at a seq, null where there is none", async () => {
    const session = pgDatabase(db.pool);
    const appended = await appendInterventions(session, [
      interventionFor('acme', 'i-1'),
      interventionFor('acme', 'i-2'),
      interventionFor('globex', 'i-3'),
    ]);
    const second = appended[1]!.intervention;
    expect(await chainRowAt(session, 'acme', second.seq)).toEqual({ seq: second.seq, hash: second.hash });
    expect(await chainRowAt(session, 'acme', second.seq + 1)).toBeNull();
    expect(await chainRowAt(session, 'initech', 1)).toBeNull();
  });
});
