import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCallInput } from '@tokencircuit/contracts';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { requested, timedOutAfterDispatch, toolCall } from '@tokencircuit/contracts/testing';
import { runCli } from '../../apps/cli/src/cli.js';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { HttpReceiver } from '../notifier/support/http-receiver.js';
import { writeNotifyFile } from '../notifier/support/notifier-harness.js';

const API_KEY = 'uncertain-write-key-0123456789';
const WAIT = { maxWait: 60_000, interval: 50 };

/**
 * Issue 27.1 end to end (`npm start`, embedded: projector, decision service, notifier and API in one process;
 * the CLI in-process against it): a refund POST that timed out pages PagerDuty; an operator resolving it
 * "the refund exists" must end the episode (PagerDuty gets the resolve) and make preflight refuse a re-send;
 * "the refund is absent" allows exactly one re-send.
 */
describe('resolve an uncertain write with the CLI: the resolution keeps its promise', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;
  const pd = new HttpReceiver(() => ({ status: 202 }));

  beforeAll(async () => {
    await pd.start();
    dataDir = mkdtempSync(join(tmpdir(), 'tc-uncertain-write-'));
    const notifyFile = writeNotifyFile({
      sinks: { oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pd.url } },
      routes: [{ match: { level: ['block', 'page'] }, sinks: ['oncall'] }],
    });
    const config = loadEmbeddedConfig({
      TOKENCIRCUIT_DATA_DIR: dataDir,
      TOKENCIRCUIT_API_KEYS: `acme:${API_KEY}`,
      API_HTTP_PORT: '0',
      TOKENCIRCUIT_NOTIFY_FILE: notifyFile,
      PD_KEY: 'uncertain-write-routing-key',
      NOTIFIER_POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'silent',
    });
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await runtime?.stop();
    await pd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = async <T>(path: string, body?: unknown): Promise<{ status: number; json: T }> => {
    const response = await fetch(`${runtime!.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as T };
  };

  async function cli(argv: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const chunks = { out: '', err: '' };
    stdout.on('data', (c: Buffer) => (chunks.out += c.toString()));
    stderr.on('data', (c: Buffer) => (chunks.err += c.toString()));
    const stdin = new PassThrough();
    stdin.end();
    const code = await runCli(argv, {
      stdin,
      stdout,
      stderr,
      env: { TOKENCIRCUIT_URL: runtime!.url, TOKENCIRCUIT_API_KEY: API_KEY, NO_COLOR: '1' },
      cwd: process.cwd(),
      signal: new AbortController().signal,
    });
    return { code, ...chunks };
  }

  const refund = (run: string): ToolCallInput =>
    toolCall({
      agent: 'support-bot',
      run,
      tool: 'refund',
      effect: 'write',
      httpMethod: 'POST',
      resourceClass: 'api_endpoint',
      resourceId: 'ch-1',
      authScope: 'refunds:write',
      intentId: `refund-ch-1-${run}`,
      arguments: { charge: 'ch-1', amount: 40 },
      sqlStatement: null,
    });
  const resend = (call: ToolCallInput, attempt: number): ToolCallInput => ({
    ...call,
    callId: `${call.callId}-resend-${attempt}`,
    attempt,
  });
  const preflight = (call: ToolCallInput) => api<{ allow: boolean; reason: string }>('/v1/preflight', { call });
  const pdActions = () =>
    pd.json<{ event_action: string; dedup_key: string; payload?: { custom_details: { key_id: string } } }>();
  const stateOf = async (keyId: string) =>
    (await api<{ status: string; state: { finding: string | null } }>(`/v1/state/${encodeURIComponent(keyId)}`)).json;

  /** A refund whose POST timed out after dispatch: the page's key id and episode. */
  async function timedOutRefund(call: ToolCallInput): Promise<{ keyId: string; episodeId: string }> {
    const before = pdActions().length;
    const posted = await api('/v1/events', { events: [requested('acme', call), timedOutAfterDispatch('acme', call)] });
    expect(posted.status).toBe(202);
    await waitFor(() => pdActions().length > before, { ...WAIT, name: 'the trigger for the timed-out refund' });
    const trigger = pdActions()[before]!;
    expect(trigger.event_action).toBe('trigger');
    return { keyId: trigger.payload!.custom_details.key_id, episodeId: trigger.dedup_key };
  }

  it('resolve --as resource_confirmed: PagerDuty gets the resolve, state tells the agent the refund exists, preflight refuses a re-send', async () => {
    const call = refund('run-confirmed');
    const { keyId, episodeId } = await timedOutRefund(call);
    expect((await preflight(resend(call, 2))).json.allow).toBe(false);

    const ack = await cli(['ack', keyId, '--by', 'alice@acme', '--reason', 'checking the ledger']);
    expect(ack.code, ack.err).toBe(0);
    await waitFor(() => pdActions().some((a) => a.dedup_key === episodeId && a.event_action === 'acknowledge'), {
      ...WAIT,
      name: 'the acknowledge',
    });

    const resolved = await cli([
      'resolve',
      keyId,
      '--as',
      'resource_confirmed',
      '--by',
      'alice@acme',
      '--reason',
      'ledger shows one refund',
    ]);
    expect(resolved.code, resolved.err).toBe(0);
    expect(resolved.out).toContain('resolved (resource_confirmed)');
    await waitFor(() => pdActions().some((a) => a.dedup_key === episodeId && a.event_action === 'resolve'), {
      ...WAIT,
      name: 'the resolve sent to PagerDuty',
    });
    expect(
      pdActions()
        .filter((a) => a.dedup_key === episodeId)
        .map((a) => a.event_action),
    ).toEqual(['trigger', 'acknowledge', 'resolve']);
    expect(await stateOf(keyId)).toMatchObject({ status: 'resolved', state: { finding: 'effect_applied' } });

    const state = await cli(['state', keyId]);
    expect(state.code, state.err).toBe(0);
    expect(state.out).toMatch(/decision\s+ADVISE proceed/);
    expect(state.out).toContain('alice@acme confirmed the write happened');
    expect(state.out).not.toMatch(/one retry is safe/);

    const again = await preflight(resend(call, 2));
    expect(again.status).toBe(200);
    expect(again.json.allow).toBe(false);
    expect(again.json.reason).toMatch(/already took effect \(alice@acme confirmed it\)/);

    // Sent anyway: the refund may now exist twice, so a new episode pages someone to reconcile it.
    const before = pdActions().length;
    expect((await api('/v1/events', { events: [requested('acme', resend(call, 2))] })).status).toBe(202);
    await waitFor(() => pdActions().length > before, { ...WAIT, name: 'the page for the duplicate re-send' });
    const page = pdActions()[before]!;
    expect(page).toMatchObject({ event_action: 'trigger' });
    expect(page.dedup_key).not.toBe(episodeId);
    expect(page.payload!.custom_details.key_id).toBe(keyId);
  });

  it('resolve --as effect_absent allows exactly one re-send; a blind reset while the effect is unknown is refused (exit 2)', async () => {
    const call = refund('run-absent');
    const { keyId, episodeId } = await timedOutRefund(call);

    const blind = await cli(['resolve', keyId, '--as', 'reset', '--by', 'bob@acme']);
    expect(blind.code).toBe(2);
    expect(blind.err).toMatch(
      /reset does not apply to this uncertain write key .* it takes .*effect_confirmed.*effect_absent/,
    );

    const absent = await cli([
      'resolve',
      keyId,
      '--as',
      'effect_absent',
      '--by',
      'bob@acme',
      '--reason',
      'no refund in the ledger',
    ]);
    expect(absent.code, absent.err).toBe(0);
    await waitFor(async () => (await stateOf(keyId)).status === 'resolved', { ...WAIT, name: 'the key resolved' });
    await waitFor(() => pdActions().some((a) => a.dedup_key === episodeId && a.event_action === 'resolve'), {
      ...WAIT,
      name: 'the resolve sent to PagerDuty',
    });

    const once = resend(call, 2);
    expect((await preflight(once)).json.allow).toBe(true);
    expect((await api('/v1/events', { events: [requested('acme', once)] })).status).toBe(202);
    await waitFor(async () => (await stateOf(keyId)).state.finding === 'effect_resent', {
      ...WAIT,
      name: 'the one re-send recorded',
    });
    const twice = await preflight(resend(call, 3));
    expect(twice.json.allow).toBe(false);
    expect(twice.json.reason).toMatch(/already re-sent once after bob@acme found its effect absent/);
  });
});
