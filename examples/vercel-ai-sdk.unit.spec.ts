import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tool } from 'ai';
import { z } from 'zod';
import { createGovernor, type Governor } from '@tokencircuit/sdk';
import { governAiTool } from '@tokencircuit/sdk/vercel-ai';

describe('governAiTool keeps the AI SDK tool shape (the real `tool()` of `ai`)', () => {
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

  it('description and inputSchema are passed through; execute is replaced', () => {
    const inputSchema = z.object({ city: z.string() });
    const execute = async ({ city }: { city: string }) => city;
    const definition = tool({ description: 'Weather', inputSchema, execute });
    const governed = governAiTool(governor, 'weather', { effect: 'read' }, definition);
    expect(governed.description).toBe('Weather');
    expect(governed.inputSchema).toBe(inputSchema);
    expect(governed.execute).toBeTypeOf('function');
    expect(governed.execute).not.toBe(execute);
  });

  it('a tool without execute (run by the client) is returned as it is', () => {
    const clientSide = tool({ description: 'Ask the user', inputSchema: z.object({ question: z.string() }) });
    expect(governAiTool(governor, 'ask_user', { effect: 'read' }, clientSide)).toBe(clientSide);
  });
});
