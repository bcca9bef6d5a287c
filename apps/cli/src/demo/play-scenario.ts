import { parseAgentEvent, type AgentEvent, type AgentEventInput } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { ApiResponseError, type ApiClient } from '../api/api-client.js';
import type { FailureStateRecord, InterventionDetail, PreflightResponse } from '../api/api-types.js';
import { interventionsAfter } from '../api/audit-pages.js';
import type { Scenario } from '../scenarios/scenario.js';
import { expectationsOf, expectedVersions } from './scenario-expectations.js';
import { waitUntil } from './wait-until.js';

/** What happened when a scenario was played against a running instance. */
export interface ScenarioPlay {
  readonly scenario: Scenario;
  readonly steps: readonly PlayedStep[];
  /** The interventions the server issued, in the order the core predicted them. */
  readonly interventions: readonly { readonly detail: InterventionDetail; readonly after: string }[];
}

export type PlayedStep =
  | { readonly kind: 'event'; readonly says: string; readonly eventId: string }
  | {
      readonly kind: 'preflight';
      readonly says: string;
      readonly expect: 'allow' | 'deny';
      readonly answer: PreflightResponse;
      readonly asExpected: boolean;
    };

export interface PlayOptions {
  readonly policy: TokenCircuitConfig;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly onStep: () => void;
}

/**
 * Plays one scenario: publishes its events through POST /v1/events, and before each preflight waits
 * until the server's state has caught up with the events so far (the core says which versions), so
 * the answer does not depend on how fast the projector is. Then waits, polling the audit trail with
 * a cursor, for exactly the interventions the core predicts, and fetches each one's artifact.
 */
export async function playScenario(client: ApiClient, scenario: Scenario, options: PlayOptions): Promise<ScenarioPlay> {
  const expected = expectationsOf(scenario, options.policy);
  const sent: AgentEvent[] = [];
  const pending: AgentEventInput[] = [];
  const steps: PlayedStep[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await client.postJson('/v1/events', { events: pending });
    sent.push(...pending.map((event) => parseAgentEvent(event)));
    pending.length = 0;
  };

  for (const step of scenario.steps) {
    if (step.kind === 'event') {
      pending.push(step.event);
      steps.push({ kind: 'event', says: step.says, eventId: step.event.id });
    } else {
      await flush();
      await projected(client, expectedVersions(sent, options.policy), scenario, options);
      const answer = await client.postJson<PreflightResponse>('/v1/preflight', { call: step.call });
      steps.push({
        kind: 'preflight',
        says: step.says,
        expect: step.expect,
        answer,
        asExpected: answer.allow === (step.expect === 'allow'),
      });
    }
    options.onStep();
  }
  await flush();

  const wanted = new Set(expected.interventions.map((i) => i.interventionId));
  const seen = new Set<string>();
  let after = 0;
  await waitUntil(
    async () => {
      const page = await interventionsAfter(client, { principal: scenario.principal }, after);
      after = page.lastSeq;
      for (const item of page.items) if (wanted.has(item.id)) seen.add(item.id);
      return seen.size === wanted.size ? true : null;
    },
    {
      name: `the ${wanted.size} intervention(s) of ${scenario.id}`,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      detail: () =>
        `saw ${seen.size} of them. Is the server's policy the one this demo assumes (--policy, TOKENCIRCUIT_POLICY_FILE)?`,
    },
  );
  options.onStep();

  const saysOf = new Map(scenario.steps.flatMap((s) => (s.kind === 'event' ? [[s.event.id, s.says] as const] : [])));
  const interventions = [];
  for (const predicted of expected.interventions) {
    const detail = await client.getJson<InterventionDetail>(
      `/v1/audit/interventions/${encodeURIComponent(predicted.interventionId)}`,
    );
    const cause = detail.causingEventIds[detail.causingEventIds.length - 1] ?? '';
    interventions.push({ detail, after: saysOf.get(cause) ?? cause });
  }
  return { scenario, steps, interventions };
}

/** Until every key the events touched has reached the version the core computed for it. */
async function projected(client: ApiClient, versions: Map<string, number>, scenario: Scenario, options: PlayOptions) {
  const behind = new Set(versions.keys());
  await waitUntil(
    async () => {
      for (const keyId of [...behind]) {
        const version = await stateVersion(client, keyId);
        if (version !== null && version >= versions.get(keyId)!) behind.delete(keyId);
      }
      return behind.size === 0 ? true : null;
    },
    {
      name: `the server to project the events of ${scenario.id}`,
      timeoutMs: options.timeoutMs,
      intervalMs: 100,
      signal: options.signal,
      detail: () => `still behind on ${[...behind].join(', ')}`,
    },
  );
}

async function stateVersion(client: ApiClient, keyId: string): Promise<number | null> {
  try {
    return (await client.getJson<FailureStateRecord>(`/v1/state/${encodeURIComponent(keyId)}`)).version;
  } catch (error) {
    if (error instanceof ApiResponseError && error.status === 404) return null;
    throw error;
  }
}
