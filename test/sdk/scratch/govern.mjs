// Runs inside a scratch project outside the repository, where @tokencircuit/sdk was installed from its
// tarball: an AI SDK tool that a finance API refuses (403), called twice with different queries. Prints
// one JSON line: what the model got back each time, and what the application received in onStop.
import { createGovernor, TokenCircuitError } from '@tokencircuit/sdk';
import { governAiTool } from '@tokencircuit/sdk/vercel-ai';

const { TC_URL, TC_API_KEY, TC_TENANT, FINANCE_URL } = process.env;
const governor = await createGovernor({
  tenant: TC_TENANT,
  agent: 'scratch-report-agent',
  principal: 'svc-reporting',
  authScope: 'finance:read',
  transport: { http: { url: TC_URL, apiKey: TC_API_KEY } },
  waitForIntervention: { budgetMs: 60_000 },
});
const stops = [];
const salaryReport = governAiTool(
  governor,
  'finance.salary_report',
  { effect: 'read', resourceClass: 'api_endpoint', resourceId: '/reports/salaries', httpMethod: 'GET' },
  {
    description: 'Salary figures for a payroll question',
    execute: async ({ query }) => {
      const response = await fetch(`${FINANCE_URL}/reports/salaries?q=${encodeURIComponent(query)}`);
      if (!response.ok) throw response;
      return response.json();
    },
  },
  { onStop: (stop) => stops.push(stop) },
);
try {
  const first = await salaryReport.execute({ query: 'total by department' }, { toolCallId: 'c1', messages: [] });
  const second = await salaryReport.execute({ query: 'median in engineering' }, { toolCallId: 'c2', messages: [] });
  console.log(
    JSON.stringify({
      modelSaw: [first, second],
      stops: stops.map((stop) => ({
        isTokenCircuitError: stop instanceof TokenCircuitError,
        source: stop.source,
        nextAction: stop.nextAction,
        artifact: stop.artifact,
      })),
    }),
  );
} finally {
  await governor.close();
}
