import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createGovernor, type Governor } from '@tokencircuit/sdk';
import { governAiTool } from './vercel-ai-sdk.js';

describe('governAiTool keeps the AI SDK tool shape', () => {
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

  it('description and schema (v5 inputSchema, v4 parameters) are passed through; execute is replaced', () => {
    const inputSchema = z.object({ city: z.string() });
    const execute = async ({ city }: { city: string }) => city;
    const v5 = governAiTool(governor, 'weather', { effect: 'read' }, { description: 'Weather', inputSchema, execute });
    expect(v5.description).toBe('Weather');
    expect(v5.inputSchema).toBe(inputSchema);
    expect(v5.execute).toBeTypeOf('function');
    expect(v5.execute).not.toBe(execute);
    const v4 = governAiTool(
      governor,
      'weather',
      { effect: 'read' },
      { description: 'Weather', parameters: inputSchema, execute },
    );
    expect(v4.parameters).toBe(inputSchema);
  });

  it('a tool without execute (run by the client) is returned as it is', () => {
    const clientSide = { description: 'Ask the user', inputSchema: z.object({ question: z.string() }) };
    expect(governAiTool(governor, 'ask_user', { effect: 'read' }, clientSide)).toBe(clientSide);
  });
});
