import type { AgentEventInput } from '../agent-events.js';

// Realistic producer input, one per RFC situation, with every defaulted field left out as an SDK would.
// Shared by the contract specs; not exported from the lib (fixtures are not API).

/** A mutating SQL call about to run. */
export const requestedInsert = {
  type: 'tool_call.requested',
  id: '01J9Z3Q5V7M2K8D4R6T0W1X3Y5',
  tenant: 'acme',
  time: '2025-03-14T09:26:53.589Z',
  data: {
    call: {
      agent: 'billing-agent',
      run: 'run-7f3a',
      callId: 'call-0001',
      attempt: 1,
      intentId: 'intent-create-invoice',
      tool: 'sql.execute',
      effect: 'write',
      resourceClass: 'sql_namespace',
      resourceId: 'billing.invoices',
      principal: 'svc-billing',
      authScope: 'billing:write',
      arguments: { statement: 'INSERT INTO invoices (customer, amount) VALUES ($1, $2)', params: ['c-42', 1999] },
      idempotencyKey: 'inv-c-42-2025-03',
      sqlStatement: 'INSERT',
    },
  },
} as const satisfies AgentEventInput;

/** RFC case 1: the principal is denied on the namespace (SQLSTATE 42501). */
export const permissionDenied = {
  type: 'tool_call.outcome',
  id: '01J9Z3Q5V7M2K8D4R6T0W1X3Y6',
  tenant: 'acme',
  time: '2025-03-14T09:26:53.912+01:00',
  data: {
    call: {
      ...requestedInsert.data.call,
      effect: 'read',
      sqlStatement: 'SELECT',
      arguments: { q: 'SELECT * FROM payroll' },
    },
    status: 'failed',
    durationMs: 12.5,
    error: {
      sqlState: '42501',
      name: 'insufficient_privilege',
      message: 'permission denied for table payroll',
    },
    dispatch: { requestSent: true, responseReceived: true },
  },
} as const satisfies AgentEventInput;

/** RFC case 3: a 503 with Retry-After from an HTTP API. */
export const transientUnavailable = {
  type: 'tool_call.outcome',
  id: 'evt-transient-1',
  tenant: 'acme',
  time: '2025-03-14T09:27:00Z',
  data: {
    call: {
      agent: 'crm-agent',
      run: 'run-9c1e',
      callId: 'call-0007',
      attempt: 2,
      intentId: 'intent-fetch-contact',
      tool: 'http.get',
      effect: 'read',
      resourceClass: 'api_endpoint',
      resourceId: 'https://crm.example.com/v2/contacts/42',
      httpMethod: 'GET',
    },
    status: 'failed',
    error: { httpStatus: 503, headers: { 'retry-after': '3' }, message: 'Service Unavailable' },
  },
} as const satisfies AgentEventInput;

/** RFC case 5: a POST timed out after the request left; nobody knows whether the order exists. */
export const ambiguousTimeout = {
  type: 'tool_call.outcome',
  id: 'evt-ambiguous-1',
  tenant: 'acme',
  time: '2025-03-14T09:28:00.000Z',
  data: {
    call: {
      agent: 'orders-agent',
      run: 'run-5b2d',
      callId: 'call-0003',
      attempt: 1,
      intentId: 'intent-place-order',
      tool: 'http.post',
      effect: 'write',
      httpMethod: 'POST',
      arguments: { sku: 'SKU-1', quantity: 3 },
    },
    status: 'unknown',
    error: { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms' },
    dispatch: { requestSent: true, responseReceived: false },
  },
} as const satisfies AgentEventInput;

/** The read-after-write check that reconciles the ambiguous POST above. */
export const readAfterWriteVerified = {
  type: 'verifier.result',
  id: 'evt-verifier-1',
  tenant: 'acme',
  time: '2025-03-14T09:28:05Z',
  data: {
    agent: 'orders-agent',
    run: 'run-5b2d',
    callId: 'call-0003',
    tool: 'http.post',
    verifier: 'read_after_write',
    finding: 'refuted',
    detail: 'GET /orders?intent=intent-place-order returned no order',
  },
} as const satisfies AgentEventInput;

/** An operator lifts a fleet-wide permission block after granting the scope. */
export const operatorGranted = {
  type: 'operator.resolution',
  id: 'evt-operator-1',
  tenant: 'acme',
  time: '2025-03-14T10:00:00Z',
  data: {
    keyId: 'fleet:acme:svc-billing:billing.invoices:sql.execute',
    resolution: 'auth_granted',
    by: 'oncall-jane',
    reason: 'granted SELECT on payroll to svc-billing (ticket SEC-1234)',
  },
} as const satisfies AgentEventInput;

export const SAMPLE_EVENTS = [
  requestedInsert,
  permissionDenied,
  transientUnavailable,
  ambiguousTimeout,
  readAfterWriteVerified,
  operatorGranted,
] as const;
