import { createGovernor, type Governor } from '@tokencircuit/sdk';
import { FleetStack } from '../../test/sdk/support/fleet-stack.js';
import { DemoServices } from './demo-services.js';

/** The real backend plus the demo services, and a governor for one example agent on them. */
export interface ExampleWorld {
  readonly stack: FleetStack;
  readonly services: DemoServices;
  readonly governor: Governor;
  close(): Promise<void>;
}

export async function startExampleWorld(agent: string): Promise<ExampleWorld> {
  const stack = await FleetStack.start();
  const services = await DemoServices.start();
  const governor = await createGovernor({
    tenant: 'acme',
    agent,
    principal: 'svc-reporting',
    transport: stack.kafkaTransport('acme'),
    // The examples keep the default 1.5 s; a shared CI machine gets more room.
    waitForIntervention: { budgetMs: 20_000 },
  });
  return {
    stack,
    services,
    governor,
    close: async () => {
      await governor.close();
      await services.close();
      await stack.close();
    },
  };
}

/** The event types the projector applied for one run, in the order it applied them. */
export async function appliedEventTypes(stack: FleetStack, run: string): Promise<string[]> {
  const { rows } = await stack.database.pool.query<{ type: string }>(
    'SELECT type FROM agent_events WHERE run = $1 ORDER BY seq',
    [run],
  );
  return rows.map((row) => row.type);
}
