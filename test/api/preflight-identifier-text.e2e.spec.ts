import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { INestApplication } from '@nestjs/common';
import { PreflightResponseSchema } from '@tokencircuit/api-http';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';
import { createTopic, randomGroupId, randomTopic } from '@tokencircuit/testing';
import { startProjectorInProcess, waitUntilCaughtUp } from '../projector/support/projector-harness.js';
import { ApiHarness } from './support/api-harness.js';

/**
 * Issue 28's bypass, end to end (real API, real Kafka, the real projector, real Postgres): a fleet-wide
 * block on a resource id holding a lone surrogate was stored as U+FFFD, and a preflight in the original
 * words answered `allow: true`; with U+0000 the ingest said 202 and the preflight 400. One identifier text
 * rule at every door (libs/contracts/src/identifier-text.ts) makes both find the block.
 */
describe('a block on an identifier with a lone surrogate or U+0000 holds at preflight (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  let projector: INestApplication | undefined;

  const denied = {
    surrogate: toolCall({
      agent: 'agent-a',
      run: 'run-a',
      principal: 'svc-surrogate',
      resourceId: 'finance.\udc00salaries',
    }),
    nul: toolCall({ agent: 'agent-a', run: 'run-a', principal: 'svc-nul', resourceId: 'finance.\u0000payroll' }),
  };

  beforeAll(async () => {
    api = await ApiHarness.start();
    for (const call of Object.values(denied)) {
      const response = await api.as('acme', '/v1/events', { body: permissionDenied('acme', call) });
      expect(response.status, await response.clone().text()).toBe(202);
    }
    const target = {
      databaseUrl: api.database.url,
      topic: api.topic,
      dlqTopic: await createTopic(randomTopic('identifier-text-dlq'), 1),
      groupId: randomGroupId('identifier-text'),
    };
    projector = await startProjectorInProcess(target);
    await waitUntilCaughtUp(api.database.pool, target);
  }, 180_000);
  afterAll(async () => {
    await projector?.close();
    await api?.close();
  });

  const ask = async (call: ReturnType<typeof toolCall>) => {
    const response = await api.as('acme', '/v1/preflight', { body: { call } });
    expect(response.status, await response.clone().text()).toBe(200);
    return PreflightResponseSchema.parse(await response.json());
  };

  it.each(Object.entries(denied))(
    '%s: the block is stored under U+FFFD, and agent B asking in the original words is refused',
    async (_, call) => {
      const { rows } = await api.database.pool.query<{ key_id: string; resource_id: string; status: string }>(
        `SELECT key_id, status, resource_id FROM failure_state WHERE tenant = 'acme' AND scope = 'fleet'`,
      );
      const stored = rows.find((r) => r.resource_id === call.resourceId!.replace(/[\u0000\ud800-\udfff]/g, '\ufffd'));
      expect(stored?.status).toBe('blocked');

      const answer = await ask({ ...call, agent: 'agent-b', run: 'run-b', callId: 'call-b' });
      expect(answer.allow).toBe(false);
      expect(answer.reason).toContain(stored!.key_id);
      expect(answer.artifact).toMatchObject({ key_id: stored!.key_id, scope: 'fleet', failure_class: 'permission' });
    },
  );

  it('a different resource of the same principal stays allowed (the rule widens nothing else)', async () => {
    const answer = await ask({ ...denied.surrogate, agent: 'agent-b', run: 'run-b', resourceId: 'finance.other' });
    expect(answer.allow).toBe(true);
  });
});
