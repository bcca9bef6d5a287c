import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { z } from 'zod';
import { createGovernor, type Governor } from '@tokencircuit/sdk';
import { governLangChainTool } from '@tokencircuit/sdk/langchain';

describe('governLangChainTool builds a real @langchain/core tool', () => {
  let governor: Governor;
  beforeAll(async () => {
    // HTTP transport: nothing is contacted until a governed tool runs, and none runs here.
    governor = await createGovernor({
      tenant: 'acme',
      agent: 'a',
      transport: { http: { url: 'http://127.0.0.1:9', apiKey: 'k' } },
      waitForIntervention: false,
    });
  });
  afterAll(async () => {
    await governor.close();
  });

  it('a chat model binds it with its name, description and JSON schema', () => {
    const governed = governLangChainTool(
      governor,
      { name: 'invoice_find', description: 'List invoices', schema: z.object({ customer: z.string() }) },
      { effect: 'read' },
      async () => [],
    );
    expect(governed.name).toBe('invoice_find');
    const bound = new FakeListChatModel({ responses: ['ok'] }).bindTools([governed]) as unknown as {
      config: { tools: Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }> };
    };
    expect(bound.config.tools[0]!.function.name).toBe('invoice_find');
    expect(Object.keys(bound.config.tools[0]!.function.parameters.properties)).toEqual(['customer']);
  });

  it('arguments the schema rejects never reach the tool or TokenCircuit', async () => {
    let ran = false;
    const governed = governLangChainTool(
      governor,
      {
        name: 'invoice_create',
        description: 'Create',
        schema: z.object({ customer: z.string(), amount: z.number().positive() }),
      },
      { effect: 'write' },
      async () => {
        ran = true;
      },
    );
    await expect(
      governed.invoke({ type: 'tool_call', id: 'c1', name: 'invoice_create', args: { customer: 'c-1', amount: -5 } }),
    ).rejects.toThrow(/amount|schema/i);
    expect(ran).toBe(false);
  });
});
