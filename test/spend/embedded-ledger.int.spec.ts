import { PGlite } from '@electric-sql/pglite';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAgentEvent, ToolCallSchema, type ToolCallOutcome } from '@tokencircuit/contracts';
import { loadConfig } from '@tokencircuit/governance';
import { migratePglite, pgliteDatabase } from '@tokencircuit/storage';
import { apiDatabase, type ApiDatabase } from '@tokencircuit/api-http';
import { toolCall } from '@tokencircuit/contracts/testing';
import { SpendLedger } from '../../libs/api-http/src/spend/spend-ledger.js';
import { SpendMetrics } from '../../libs/api-http/src/spend/spend-metrics.js';

/** The embedded mode's ledger: the same reserve and settle on PGlite, through the port the API uses there. */
describe('the spend ledger on PGlite (embedded mode)', () => {
  let pglite: PGlite;
  let db: ApiDatabase;
  const policy = loadConfig({ spend: { budgets: [{ id: 'run-calls', per: 'run', meter: 'calls', limit: 3 }] } }).spend!;
  const now = new Date('2026-01-05T10:00:00.000Z');

  beforeAll(async () => {
    pglite = new PGlite();
    await migratePglite(pglite);
    db = apiDatabase(pgliteDatabase(pglite));
  });
  afterAll(async () => {
    await db?.close();
  });

  it('reserves up to the limit, refuses the next call, and an outcome settles one call', async () => {
    const ledger = new SpendLedger(db, policy, new SpendMetrics(new Registry()), 'test-policy');
    const call = (n: number) => ToolCallSchema.parse(toolCall({ run: 'run-e', callId: `c-${n}`, intentId: `c-${n}` }));
    const levels = [];
    for (let n = 1; n <= 4; n++) levels.push((await ledger.reserve('acme', call(n), {}, now))?.level);
    expect(levels).toEqual(['ok', 'ok', 'advise', 'block']);
    const outcome = parseAgentEvent({
      type: 'tool_call.outcome',
      id: 'o-1',
      tenant: 'acme',
      time: now.toISOString(),
      data: { call: call(1), status: 'succeeded' },
    }) as ToolCallOutcome;
    await ledger.settle(outcome, now);
    const { rows } = await pglite.query<{ spent: number; reserved: number }>(
      `SELECT spent::int AS spent, reserved::int AS reserved FROM spend_lines WHERE tenant = 'acme' AND subject = 'run-e'`,
    );
    expect(rows).toEqual([{ spent: 1, reserved: 2 }]);
  });
});
