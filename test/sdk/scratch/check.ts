// Type-checked with tsc inside the scratch project (with `ai` and `zod` installed beside the SDK): the
// installed package's types are real, not `any`, and its tools fit the AI SDK's own types.
import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { createGovernor, TokenCircuitError, type DiagnosticArtifact, type Governor } from '@tokencircuit/sdk';
import { governAiTool } from '@tokencircuit/sdk/vercel-ai';
import { chatTools, governFunction } from '@tokencircuit/sdk/openai';

export async function check(): Promise<string> {
  const governor: Governor = await createGovernor({
    tenant: 'acme',
    agent: 'a',
    transport: { http: { url: 'http://127.0.0.1:8080', apiKey: 'key' } },
  });
  // @ts-expect-error effect is one of read | idempotent_write | write | unknown
  governor.wrapTool('t', { effect: 'sometimes' }, async () => 1);
  const stops: DiagnosticArtifact[] = [];
  const tools: ToolSet = {
    weather: governAiTool(
      governor,
      'weather',
      { effect: 'read', resourceId: ({ city }) => `/weather/${city}` },
      tool({
        description: 'Weather',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, tempC: 7 }),
      }),
      {
        onStop: (stop: TokenCircuitError, input: { city: string }) => {
          stops.push(stop.artifact);
          void input.city;
        },
      },
    ),
  };
  const report = governFunction(
    governor,
    { name: 'report', description: 'Report', parameters: { type: 'object' } },
    { effect: 'read' },
    async (args: { q?: string }) => args.q ?? '',
  );
  return `${Object.keys(tools).join()} ${chatTools([report])[0]!.function.name} ${stops.length}`;
}
