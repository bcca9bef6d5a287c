import { describe, expect, it } from 'vitest';
import type { InterventionData } from '@tokencircuit/contracts';
import { InterventionInbox } from './intervention-inbox.js';

const intervention = (id: string, causingEventIds: string[]) =>
  ({ interventionId: id, causingEventIds }) as unknown as InterventionData;

describe('InterventionInbox: matching interventions to the calls waiting for them', () => {
  it('an intervention that arrives while the call waits resolves the wait', async () => {
    const inbox = new InterventionInbox();
    const waiting = inbox.waitFor('outcome-2', 5_000);
    inbox.deliver(intervention('i-1', ['outcome-1']));
    inbox.deliver(intervention('i-2', ['outcome-1', 'outcome-2']));
    await expect(waiting).resolves.toMatchObject({ interventionId: 'i-2' });
  });

  it('one that arrived before the wait began is still found (the decision can be faster than the await)', async () => {
    const inbox = new InterventionInbox();
    inbox.deliver(intervention('i-1', ['outcome-1']));
    await expect(inbox.waitFor('outcome-1', 0)).resolves.toMatchObject({ interventionId: 'i-1' });
  });

  it('nothing within the budget is null, and closing releases every waiter with null', async () => {
    const inbox = new InterventionInbox();
    await expect(inbox.waitFor('outcome-9', 20)).resolves.toBeNull();
    const pending = inbox.waitFor('outcome-10', 60_000);
    inbox.drain();
    await expect(pending).resolves.toBeNull();
  });
});
