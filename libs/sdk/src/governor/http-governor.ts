import { GovernorConfigError } from '../errors/sdk-errors.js';
import {
  resolveOptions,
  type ApiEndpoint,
  type GovernorOptions,
  type ResolvedOptions,
} from '../options/governor-options.js';
import { ApiClient } from '../transport/api-client.js';
import type { EventQueue } from '../transport/event-queue.js';
import { HttpEventSink } from '../transport/http-event-sink.js';
import { QueuedEventSink } from '../transport/queued-event-sink.js';
import { HttpInterventionPoll } from '../transport/http-intervention-poll.js';
import { PreflightClient, type PreflightAnswers } from '../transport/preflight-client.js';
import { Governor } from './governor.js';

/** createGovernor's options for an agent that talks to TokenCircuit only over its HTTP API. */
export type HttpGovernorOptions = Omit<GovernorOptions, 'transport' | 'contentMode' | 'connectTimeoutMs'> & {
  readonly transport: {
    readonly http: ApiEndpoint;
    readonly queue?: EventQueue;
    readonly preflightAnswers?: PreflightAnswers;
  };
};

/** A governor whose events, preflight and interventions all go through the HTTP API (validated options). */
export function httpGovernor(options: ResolvedOptions & { readonly api: ApiEndpoint }): Governor {
  const api = new ApiClient(options.api);
  const watch = options.wait === null ? null : new HttpInterventionPoll(api, options.run, options.wait.pollIntervalMs);
  const sink =
    options.eventQueue === null ? new HttpEventSink(api) : new QueuedEventSink(options.eventQueue, options.api);
  return new Governor(options, sink, new PreflightClient(api, options.preflightAnswers), watch);
}

/**
 * `@tokencircuit/sdk/http`'s createGovernor: the HTTP transport only. Nothing of Kafka is imported,
 * not even lazily, so the bundle and its types need neither kafkajs nor Node's types.
 */
export async function createHttpGovernor(input: HttpGovernorOptions): Promise<Governor> {
  const options = resolveOptions(input as GovernorOptions);
  if (options.kafka !== null || options.api === null) {
    throw new GovernorConfigError([
      'transport: @tokencircuit/sdk/http takes only { http: { url, apiKey } }; import createGovernor from @tokencircuit/sdk for Kafka',
    ]);
  }
  return httpGovernor({ ...options, api: options.api });
}
