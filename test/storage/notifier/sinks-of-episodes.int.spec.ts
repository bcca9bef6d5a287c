import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { pgDatabase } from '../../../libs/storage/src/sql-database.js';
import { asRole } from '../../../libs/storage/src/spec-support/as-role.js';
import { delivery } from '../../../libs/storage/src/spec-support/deliveries.js';
import { recordDeliveries } from '../../../libs/storage/src/notifier/record-deliveries.js';
import { sinksOfEpisodes } from '../../../libs/storage/src/notifier/sinks-of-episodes.js';

describe('sinksOfEpisodes (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_sinks_of_episodes');
    await recordDeliveries(pgDatabase(db.pool), [
      delivery('d-1', 'slack', { episodeId: 'ep-a' }),
      delivery('d-2', 'pager', { episodeId: 'ep-a' }),
      delivery('d-3', 'pager', { episodeId: 'ep-a' }),
      delivery('d-4', 'webhook', { episodeId: 'ep-b', tenant: 'globex' }),
    ]);
  });
  afterAll(async () => db?.drop());

  it('is empty for no episodes and leaves out an episode no sink carries', async () => {
    expect(await sinksOfEpisodes(pgDatabase(db.pool), [])).toEqual(new Map());
    expect(await sinksOfEpisodes(pgDatabase(db.pool), ['ep-unknown'])).toEqual(new Map());
  });

  it('names each sink of each episode once, whatever the input repeats, across tenants for the notifier', async () => {
    const carried = await asRole(db.pool, 'tokencircuit_notifier', (tx) =>
      sinksOfEpisodes(tx, ['ep-a', 'ep-b', 'ep-a', 'ep-unknown']),
    );
    expect(carried).toEqual(
      new Map([
        ['ep-a', ['pager', 'slack']],
        ['ep-b', ['webhook']],
      ]),
    );
  });

  it("sees only its own tenant's deliveries under a tenant's setting", async () => {
    const carried = await asRole(
      db.pool,
      'tokencircuit_audit',
      (tx) => sinksOfEpisodes(tx, ['ep-a', 'ep-b']),
      'globex',
    );
    expect(carried).toEqual(new Map([['ep-b', ['webhook']]]));
  });
});
