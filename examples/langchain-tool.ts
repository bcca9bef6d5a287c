/**
 * TokenCircuit with LangChain.js: `governLangChainTool` from `@tokencircuit/sdk/langchain` builds a real
 * `@langchain/core` tool whose function is governed. This example is the RFC's unknown-effect case: an
 * invoice POST times out after it was sent, TokenCircuit stops the retry, the agent reads back, the
 * read-back reports what it found as a read-after-write verifier, and only then is the retry allowed.
 * The model sees a short stop message in the ToolMessage; the application's onStop gets the artifact.
 * Run: `npm start` in one terminal, then `npx tsx examples/langchain-tool.ts`.
 *
 * The model's tool calls are scripted here (ToolCalls as a chat model emits them, invoked the way an
 * agent's tool node does), so the example needs no API key.
 */
import type { ToolMessage } from '@langchain/core/messages';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { z } from 'zod';
import type { Governor, TokenCircuitError } from '@tokencircuit/sdk';
import { governLangChainTool } from '@tokencircuit/sdk/langchain';
import { DemoServices, getJson, postJson } from './support/demo-services.js';
import { governorFromEnv, isMain } from './support/governor-from-env.js';

export interface InvoiceTools {
  readonly createInvoice: DynamicStructuredTool;
  readonly findInvoices: DynamicStructuredTool;
  /** Every stop, with its full artifact, as the application received it. */
  readonly stops: TokenCircuitError[];
}

export function buildTools(governor: Governor, servicesUrl: string): InvoiceTools {
  const stops: TokenCircuitError[] = [];
  // Writes whose effect is unknown, by customer: the read-back below is their verifier.
  const unknownWrites = new Map<string, string>();

  const createInvoice = governLangChainTool<{ customer: string; amount: number }>(
    governor,
    {
      name: 'invoice_create',
      description: 'Create an invoice for a customer',
      schema: z.object({ customer: z.string(), amount: z.number().positive() }),
    },
    { effect: 'write', resourceClass: 'api_endpoint', resourceId: '/invoices', httpMethod: 'POST' },
    (input) => postJson(`${servicesUrl}/invoices`, input),
    {
      onStop: (stop, input) => {
        stops.push(stop);
        if (stop.call.status === 'unknown') unknownWrites.set(input.customer, stop.call.callId);
      },
    },
  );

  const findInvoices = governLangChainTool<{ customer: string }>(
    governor,
    { name: 'invoice_find', description: "List a customer's invoices", schema: z.object({ customer: z.string() }) },
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
    { onStop: (stop) => stops.push(stop) },
  );
  return { createInvoice, findInvoices, stops };
}

let toolCallCount = 0;
/** Invokes a tool with a ToolCall, as LangChain's agents do: the answer is a ToolMessage for the model. */
export async function invokeToolCall(tool: DynamicStructuredTool, args: Record<string, unknown>): Promise<string> {
  const message = (await tool.invoke({
    type: 'tool_call',
    id: `call_${++toolCallCount}`,
    name: tool.name,
    args,
  })) as ToolMessage;
  return String(message.content);
}

/**
 * What a model does here: create the invoice; on "reconcile_before_retry", read back; if nothing was
 * created, create it again. The backend applies the verifier asynchronously (typically well under a
 * second), so a retry that preflight still refuses for reconciliation is asked again shortly after.
 */
export async function runScriptedAgent(tools: InvoiceTools, customer = 'c-42', amount = 1200): Promise<string[]> {
  const transcript: string[] = [];
  const first = await invokeToolCall(tools.createInvoice, { customer, amount });
  transcript.push(first);
  if (!first.includes('reconcile_before_retry')) return transcript;

  const found = await invokeToolCall(tools.findInvoices, { customer });
  transcript.push(found);
  if ((JSON.parse(found) as unknown[]).length > 0) return transcript;

  for (let ask = 0; ask < 40; ask++) {
    const retry = await invokeToolCall(tools.createInvoice, { customer, amount });
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
    const tools = buildTools(governor, services.url);
    for (const line of await runScriptedAgent(tools)) console.log(`\n[model] ${line}`);
    for (const stop of tools.stops)
      console.log(`\n[app] artifact of ${stop.call.callId}:`, JSON.stringify(stop.artifact));
    console.log(`\ninvoices created: ${services.invoices.length}`);
  } finally {
    await governor.close();
    await services.close();
  }
}
