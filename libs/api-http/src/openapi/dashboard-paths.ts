import { FLEET_WINDOWS } from '../dashboard/fleet-window.js';

type JsonObject = Record<string, unknown>;
type Errors = (...statuses: number[]) => JsonObject;

const object = (description: string): JsonObject => ({
  description,
  content: { 'application/json': { schema: { type: 'object' } } },
});

/**
 * The dashboard's own routes (the page also uses the audit and resolution routes). They accept the
 * API key like every /v1 route, or the dashboard's session cookie; with the cookie, a request that
 * changes state must also send the session's x-csrf-token.
 */
export function dashboardPaths(errors: Errors): JsonObject {
  return {
    '/v1/dashboard/login-tokens': {
      post: {
        operationId: 'createDashboardLoginLink',
        summary: 'A one-time, five-minute sign-in link for the dashboard (what `tokencircuit dashboard` prints)',
        description: 'Only with an API key, never with a session: `path` signs one browser in, once.',
        responses: {
          '201': object('{ tenant, path: "/dashboard/login?token=…", expiresAt }'),
          ...errors(401, 403),
        },
      },
    },
    '/v1/dashboard/session': {
      get: {
        operationId: 'getDashboardSession',
        summary: 'Who the caller is signed in as, and the CSRF token its state-changing requests must send',
        responses: { '200': object('{ tenant, via: "session" | "api_key", csrfToken, expiresAt }'), ...errors(401) },
      },
    },
    '/v1/dashboard/fleet': {
      get: {
        operationId: 'getFleetNow',
        summary:
          'Keys blocked or paged now, counted by principal, tool, resource and class; interventions over time; the hottest keys; fleet-wide no_progress loops',
        parameters: [
          {
            name: 'window',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: Object.keys(FLEET_WINDOWS), default: '1h' },
          },
        ],
        responses: {
          '200': object(
            '{ window, held[], heldTotal, breakdown{principal,tool,resource,class}, series[], hottest[], loops[] }',
          ),
          ...errors(400, 401),
        },
      },
    },
    '/v1/dashboard/spend': {
      get: {
        operationId: 'getSpend',
        summary: 'Spend against budget: the tenant’s budget lines fullest first, and settled usage per agent and tool',
        description: 'docs/budgets.md. Amounts are ledger units: tokens, calls, or micro-units of `currency`.',
        parameters: [
          { name: 'subject', in: 'query', required: false, schema: { type: 'string' } },
          {
            name: 'hours',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 744, default: 24 },
          },
        ],
        responses: {
          '200': object(
            '{ currency, lines[{ budgetId, subject, window, meter, limit, spent, reserved, usedRatio }], byTool[], byFailure[{ failureClass, keyId, tool, status, calls, tokens, cost }] }',
          ),
          ...errors(400, 401),
        },
      },
    },
    '/v1/dashboard/runs/{run}': {
      get: {
        operationId: 'getRunTimeline',
        summary: 'One run’s tool calls, outcomes, verifier results and operator events, with its interventions',
        parameters: [{ name: 'run', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': object('{ run, events[], truncated, interventions[] }'), ...errors(401, 404) },
      },
    },
    '/v1/dashboard/live': {
      get: {
        operationId: 'followFleetLive',
        summary: 'Server-sent events: `change` for each new intervention or lifecycle change of the tenant',
        responses: {
          '200': {
            description: 'text/event-stream; each `change` event carries { tenant, type, id, keyId, run }.',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errors(401),
        },
      },
    },
  };
}
