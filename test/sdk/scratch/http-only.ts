// An HTTP-only agent's project: no kafkajs, no @types/node, and libraries checked (skipLibCheck: false).
// Copied into the scratch project by test/sdk/pack-install.e2e.spec.ts and type-checked there.
import {
  createGovernor,
  TokenCircuitError,
  type DecisionLevel,
  type HttpGovernorOptions,
} from '@tokencircuit/sdk/http';

const options: HttpGovernorOptions = {
  tenant: 'acme',
  agent: 'support-agent',
  transport: { http: { url: 'http://127.0.0.1:8080', apiKey: 'key' } },
};

export async function refund(chargeId: string): Promise<unknown> {
  const governor = await createGovernor(options);
  const tool = governor.wrapTool(
    'payments.refund',
    { effect: 'write', resourceId: 'payments-api:/v1/refunds', httpMethod: 'POST' },
    async (input: { chargeId: string }) => ({ refunded: input.chargeId }),
  );
  try {
    return await tool({ chargeId });
  } catch (error) {
    if (error instanceof TokenCircuitError) {
      const level: DecisionLevel = error.level;
      return { level, next: error.nextAction, result: error.toToolResult() };
    }
    throw error;
  } finally {
    await governor.close();
  }
}

// @ts-expect-error the HTTP entry takes no Kafka transport (only holds when the types are real)
void createGovernor({ tenant: 'acme', agent: 'a', transport: { kafka: { brokers: ['127.0.0.1:9092'] } } });
