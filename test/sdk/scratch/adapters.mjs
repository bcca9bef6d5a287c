// Runs inside the scratch project once @langchain/core is installed there too: the LangChain and OpenAI
// subpath exports against the running backend, on the finance tool the previous script got blocked.
// Prints one JSON line: the ToolMessage LangChain produced and the tool message for an OpenAI tool call.
import { z } from 'zod';
import { createGovernor } from '@tokencircuit/sdk';
import { governLangChainTool } from '@tokencircuit/sdk/langchain';
import { answerToolCalls, governFunction } from '@tokencircuit/sdk/openai';

const { TC_URL, TC_API_KEY, TC_TENANT, FINANCE_URL } = process.env;
const governor = await createGovernor({
  tenant: TC_TENANT,
  agent: 'scratch-adapters-agent',
  principal: 'svc-reporting',
  authScope: 'finance:read',
  transport: { http: { url: TC_URL, apiKey: TC_API_KEY } },
  waitForIntervention: { budgetMs: 60_000 },
});
const meta = { effect: 'read', resourceClass: 'api_endpoint', resourceId: '/reports/salaries', httpMethod: 'GET' };
const fetchReport = async ({ query }) => {
  const response = await fetch(`${FINANCE_URL}/reports/salaries?q=${encodeURIComponent(query)}`);
  if (!response.ok) throw response;
  return response.json();
};
const stops = [];
try {
  const langChainTool = governLangChainTool(
    governor,
    { name: 'salary_report', description: 'Salary figures', schema: z.object({ query: z.string() }) },
    meta,
    fetchReport,
    { onStop: (stop) => stops.push(stop.artifact.failure_class) },
  );
  const toolMessage = await langChainTool.invoke({
    type: 'tool_call',
    id: 'lc_1',
    name: 'salary_report',
    args: { query: 'cost by team' },
  });
  const [openAiMessage] = await answerToolCalls(
    [{ id: 'oa_1', type: 'function', function: { name: 'salary_report', arguments: '{"query":"cost by site"}' } }],
    [
      governFunction(
        governor,
        {
          name: 'salary_report',
          description: 'Salary figures',
          parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
        },
        meta,
        fetchReport,
      ),
    ],
    { onStop: (stop) => stops.push(stop.artifact.failure_class) },
  );
  console.log(
    JSON.stringify({
      langChain: { kind: toolMessage.getType(), toolCallId: toolMessage.tool_call_id, content: toolMessage.content },
      openAi: openAiMessage,
      stops,
    }),
  );
} finally {
  await governor.close();
}
