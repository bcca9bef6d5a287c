import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, VerifierKind, VerifierResult } from '@tokencircuit/contracts';
import type { CallHandle } from '../calls/call-handle.js';
import { CallRegistry } from '../calls/call-registry.js';
import { IntentLedger } from '../calls/intent-ledger.js';
import { GovernorConfigError, PublishError } from '../errors/sdk-errors.js';
import type { ResolvedOptions } from '../options/governor-options.js';
import { validateToolMeta, type ToolMeta } from '../options/tool-meta.js';
import type { EventSink } from '../transport/event-sink.js';
import type { InterventionWatch } from '../transport/intervention-watch.js';
import type { PreflightClient } from '../transport/preflight-client.js';
import { runGovernedCall } from './call-pipeline.js';
import { EventFactory } from './event-factory.js';
import type { GovernorRuntime, PublishContext } from './runtime.js';
import { publishVerification, type VerifyInput, type VerifyInputV1 } from './verify.js';

/** Governs one agent run's tool calls. Create it with createGovernor(); close() it when the run ends. */
export class Governor {
  readonly tenant: string;
  readonly agent: string;
  readonly run: string;
  private readonly runtime: GovernorRuntime;
  private readonly retryScope = new AsyncLocalStorage<string>();
  private closed = false;

  /** @internal use createGovernor() */
  constructor(
    options: ResolvedOptions,
    private readonly sink: EventSink,
    preflight: PreflightClient | null,
    watch: InterventionWatch | null,
  ) {
    this.tenant = options.tenant;
    this.agent = options.agent;
    this.run = options.run;
    this.runtime = {
      options,
      events: new EventFactory(options.tenant, options.clock),
      ledger: new IntentLedger(() => `intent-${randomUUID()}`),
      registry: new CallRegistry(),
      preflight,
      watch,
      publish: (event, context) => this.publish(event, context),
      publishInBackground: (event, context) => this.publishInBackground(event, context),
      retryIntent: () => this.retryScope.getStore() ?? null,
      assertOpen: () => {
        if (this.closed) throw new Error(`governor of run ${this.run} is closed`);
      },
    };
  }

  /**
   * Wraps a tool: same arguments, same result, same errors, plus governance. Each call may be denied
   * before it runs (TokenCircuitError), is reported as requested and as its outcome, and a failure
   * that the backend answers with a block or page throws TokenCircuitError (the tool's error as cause).
   */
  wrapTool<A extends unknown[], R>(
    name: string,
    meta: ToolMeta<A, R>,
    fn: (...args: A) => R | Promise<R>,
  ): (...args: A) => Promise<Awaited<R>> {
    validateToolMeta(name, meta);
    if (typeof fn !== 'function')
      throw new GovernorConfigError([`wrapTool(${JSON.stringify(name)}): fn: must be a function`]);
    if (meta.preflight === 'always' && this.runtime.preflight === null) {
      throw new GovernorConfigError([
        `wrapTool(${JSON.stringify(name)}): meta.preflight: 'always' needs an API (transport.api or transport.http)`,
      ]);
    }
    const runtime = this.runtime;
    const governed = function (this: unknown, ...args: A): Promise<Awaited<R>> {
      return runGovernedCall(runtime, name, meta, fn, this, args);
    };
    Object.defineProperty(governed, 'name', { value: fn.name || name });
    return governed;
  }

  /**
   * Runs `body` with every governed call inside it counted as an attempt of `intentId` (attempt numbers
   * continue from the intent's earlier attempts), whatever its arguments: e.g. a repair of arguments
   * that the model rewrote, which is still the same goal.
   */
  retry<T>(intentId: string, body: () => T | Promise<T>): Promise<T> {
    if (typeof intentId !== 'string' || intentId.length === 0)
      throw new GovernorConfigError(['retry(): intentId: must be a non-empty string']);
    return this.retryScope.run(intentId, async () => body());
  }

  /**
   * Reports what a verifier established about a call (read-after-write, empty result, resource resolution,
   * same verifier) as a verifier.result v2: `{ finding: 'confirmed' | 'refuted' | 'inconclusive' }`. The v1
   * form `{ passed, effectApplied | emptyIsValid }` is still accepted and converted.
   */
  verify(
    call: string | CallHandle,
    verifier: VerifierKind,
    result: VerifyInput | VerifyInputV1,
  ): Promise<VerifierResult> {
    this.runtime.assertOpen();
    return publishVerification(this.runtime, call, verifier, result);
  }

  /** The call that threw `error` (the tool's own error or a TokenCircuitError), or null. */
  callOf(error: unknown): CallHandle | null {
    return this.runtime.registry.ofError(error);
  }

  /** The latest call of `tool` (or of any tool). */
  lastCall(tool?: string): CallHandle | null {
    return this.runtime.registry.lastCall(tool);
  }

  /** Stops the intervention consumer and flushes and disconnects the producer. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const results = await Promise.allSettled([this.runtime.watch?.close(), this.sink.close()]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async publish(event: AgentEvent, context: PublishContext = {}): Promise<void> {
    try {
      await this.sink.publish(event);
    } catch (cause) {
      this.publishFailed(event, context, cause);
    }
  }

  /** Hands the event to an ordered sink without waiting; a sink that cannot queue is waited for as before. */
  private async publishInBackground(event: AgentEvent, context: PublishContext = {}): Promise<void> {
    if (this.sink.enqueue === undefined) return this.publish(event, context);
    try {
      this.sink.enqueue(event);
    } catch (cause) {
      this.publishFailed(event, context, cause);
    }
  }

  /** Throws PublishError, or hands it to onPublishError: never lose an event silently. */
  private publishFailed(event: AgentEvent, context: PublishContext, cause: unknown): void {
    const error = new PublishError(
      `TokenCircuit could not publish ${event.type} ${event.id}: ${cause instanceof Error ? cause.message : String(cause)}`,
      event,
      { cause, ...context },
    );
    const handler = this.runtime.options.onPublishError;
    if (handler === null) throw error;
    handler(error);
  }
}
