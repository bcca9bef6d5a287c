import type { AgentEventInput, ToolCallInput } from '@tokencircuit/contracts';

export type ScenarioId =
  | 'rfc-1-permission'
  | 'rfc-2-validation'
  | 'rfc-3-transient'
  | 'rfc-4-empty-result'
  | 'rfc-5-side-effect'
  | 'page-unknown-refund';

/** Something the agent of a scenario does: publish an event, or ask preflight before it acts. */
export type ScenarioStep =
  | { readonly kind: 'event'; readonly event: AgentEventInput; readonly says: string }
  | {
      readonly kind: 'preflight';
      readonly tenant: string;
      readonly call: ToolCallInput;
      readonly says: string;
      /** What the engine must answer; the demo reports a different answer as a finding. */
      readonly expect: 'allow' | 'deny';
      /** The scenario's clock when it asks (the reference check uses it as preflight's `now`). */
      readonly at: string;
    };

/** One of the RFC's five test cases (or the demo's page) as a story of agent events. */
export interface Scenario {
  readonly id: ScenarioId;
  readonly title: string;
  /** What the scenario shows, in one sentence. */
  readonly summary: string;
  /** Every call of the scenario acts as this principal: the demo finds its interventions by it. */
  readonly principal: string;
  readonly steps: readonly ScenarioStep[];
}

export interface ScenarioSettings {
  readonly tenant: string;
  /** Appended to run ids, principals, call and event ids: each demo run starts from fresh state. */
  readonly suffix: string;
  /** The time of the scenario's first event; later ones follow a second apart. */
  readonly start: string;
}

export const eventsOf = (scenario: Scenario): AgentEventInput[] =>
  scenario.steps.flatMap((step) => (step.kind === 'event' ? [step.event] : []));
