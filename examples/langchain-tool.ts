/**
 * TokenCircuit with LangChain.js tools: a governed `func` for `tool(func, { name, description, schema })`
 * or `new DynamicStructuredTool({ ..., func })`. This example is the RFC's unknown-effect case: an
 * invoice POST times out after it was sent, TokenCircuit stops the retry, the agent reads back, the
 * read-back reports what it found as a read-after-write verifier, and only then is the retry allowed.
 * Run: `npm start` in one terminal, then `npx tsx examples/langchain-tool.ts`.
 *
 * With the real package:   import { tool } from '@langchain/core/tools';
 *                          const tools = buildTools(governor, url).map((t) => tool(t.func, t.fields));
 * This file relies only on that documented shape, so @langchain/core is not a dependency here.
 */
import { z } from 'zod';
import { TokenCircuitError, type Governor, type ToolMeta } from '@tokencircuit/sdk';
import { DemoServices, getJson, postJson } from './support/demo-services.js';
import { governorFromEnv, isMain } from './support/governor-from-env.js';

/** The fields LangChain's tool() / DynamicStructuredTool take besides func. */
export interface LangChainToolFields<S extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly schema: S;
}

/** A LangChain tool function: parsed input (and a RunnableConfig) in, the ToolMessage content out. */
export type LangChainToolFunc<I> = (input: I, config?: unknown) => Promise<string>;

/**
 * Governs a tool's implementation for LangChain. Tool output is text for the model: results are
 * JSON, and a TokenCircuit stop is the JSON of its tool result (next allowed action + artifact).
 */
export function governLangChainTool<S extends z.ZodType<Record<string, unknown>>>(
  governor: Governor,
  fields: LangChainToolFields<S>,
  meta: ToolMeta<[z.infer<S>]>,
  implementation: (input: z.infer<S>) => Promise<unknown>,
  onStop: (stop: TokenCircuitError, input: z.infer<S>) => void = () => undefined,
): { readonly fields: LangChainToolFields<S>; readonly func: LangChainToolFunc<z.infer<S>> } {
  const governed = governor.wrapTool(fields.name, meta, implementation);
  return {
    fields,
    func: async (input) => {
      try {
        return JSON.stringify(await governed(input));
      } catch (error) {
        if (!(error instanceof TokenCircuitError)) throw error;
        onStop(error, input);
        return JSON.stringify(error.toToolResult());
      }
    },
  };
}

/** What LangChain's StructuredTool.invoke does before calling func: validate the model's arguments. */
export const invoke = async <S extends z.ZodType<Record<string, unknown>>>(
  tool: { fields: LangChainToolFields<S>; func: LangChainToolFunc<z.infer<S>> },
  args: unknown,
): Promise<string> => tool.func(tool.fields.schema.parse(args));

export function buildTools(governor: Governor, servicesUrl: string) {
  // Writes whose effect is unknown, by customer: the read-back below is their verifier.
  const unknownWrites = new Map<string, string>();

  const createInvoice = governLangChainTool(
    governor,
    {
      name: 'invoice.create',
      description: 'Create an invoice for a customer',
      schema: z.object({ customer: z.string(), amount: z.number().positive() }),
    },
    { effect: 'write', resourceClass: 'api_endpoint', resourceId: '/invoices', httpMethod: 'POST' },
    (input) => postJson(`${servicesUrl}/invoices`, input),
    (stop, input) => {
      if (stop.call.status === 'unknown') unknownWrites.set(input.customer, stop.call.callId);
    },
  );

  const findInvoices = governLangChainTool(
    governor,
    { name: 'invoice.find', description: "List a customer's invoices", schema: z.object({ customer: z.string() }) },
    { effect: 'read', resourceClass: 'api_endpoint', resourceId: '/invoices', httpMethod: 'GET' },
    async ({ customer }) => {
      const invoices = (await getJson(`${servicesUrl}/invoices?customer=${encodeURIComponent(customer)}`)) as unknown[];
      // Reading back is the read-after-write verification of an earlier unknown write.
      const pending = unknownWrites.get(customer);
      if (pending !== undefined) {
        await governor.verify(pending, 'read_after_write', {
          finding: invoices.length > 0 ? 'confirmed' : 'refuted',
          detail: `${invoices.length} invoice(s) for ${customer}`,
        });
        unknownWrites.delete(customer);
      }
      return invoices;
    },
  );
  return { createInvoice, findInvoices };
}

/**
 * What a model does here: create the invoice; on "reconcile_before_retry", read back; if nothing was
 * created, create it again. The backend applies the verifier asynchronously (typically well under a
 * second), so a retry that preflight still refuses for reconciliation is asked again shortly after.
 */
export async function runScriptedAgent(
  tools: ReturnType<typeof buildTools>,
  customer = 'c-42',
  amount = 1200,
): Promise<string[]> {
  const transcript: string[] = [];
  const first = await invoke(tools.createInvoice, { customer, amount });
  transcript.push(first);
  if (!first.includes('reconcile_before_retry')) return transcript;

  const found = await invoke(tools.findInvoices, { customer });
  transcript.push(found);
  if ((JSON.parse(found) as unknown[]).length > 0) return transcript;

  for (let ask = 0; ask < 40; ask++) {
    const retry = await invoke(tools.createInvoice, { customer, amount });
    if (!retry.includes('reconcile_before_retry')) {
      transcript.push(retry);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return transcript;
}

if (isMain(import.meta.url)) {
  const services = await DemoServices.start();
  services.hangNextInvoice = true; // the invoicing API is slow today: the first POST gets no answer
  const governor = await governorFromEnv('langchain-example', 'svc-billing');
  try {
    for (const line of await runScriptedAgent(buildTools(governor, services.url))) console.log(`\n${line}`);
    console.log(`\ninvoices created: ${services.invoices.length}`);
  } finally {
    await governor.close();
    await services.close();
  }
}
