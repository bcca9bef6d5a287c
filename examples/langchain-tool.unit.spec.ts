import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGovernor, type Governor } from '@tokencircuit/sdk';
import { governLangChainTool, invoke } from './langchain-tool.js';

describe('governLangChainTool keeps the LangChain tool shape', () => {
  let governor: Governor;
  beforeAll(async () => {
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

  it('passes name, description and schema through for tool(func, fields)', () => {
    const fields = { name: 'invoice.find', description: 'List invoices', schema: z.object({ customer: z.string() }) };
    const governed = governLangChainTool(governor, fields, { effect: 'read' }, async () => []);
    expect(governed.fields).toBe(fields);
    expect(governed.func).toBeTypeOf('function');
  });

  it('arguments the schema rejects never reach the tool or TokenCircuit', async () => {
    let ran = false;
    const governed = governLangChainTool(
      governor,
      {
        name: 'invoice.create',
        description: 'Create',
        schema: z.object({ customer: z.string(), amount: z.number().positive() }),
      },
      { effect: 'write' },
      async () => {
        ran = true;
      },
    );
    await expect(invoke(governed, { customer: 'c-1', amount: -5 })).rejects.toThrow(/amount/);
    expect(ran).toBe(false);
  });
});
