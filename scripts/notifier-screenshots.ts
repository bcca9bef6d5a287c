/**
 * The demo's page as a person gets it, for docs/notifier.md: plays the page scenario (the unknown refund)
 * into `npm start`'s embedded mode with a routing file that sends page-level steps to a local Slack and a
 * local PagerDuty receiver, renders the Slack message (Block Kit, scripts/slack-preview.ts) in Debian's
 * chromium and writes docs/notifier-slack-page.png, then prints the PagerDuty Events API v2 body of the page
 * (routing key replaced) for the json block beside it. Run: npx tsx scripts/notifier-screenshots.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { loadEmbeddedConfig } from '../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded } from '../apps/fleet/src/fleet-modes.js';
import { eventsOf } from '../apps/cli/src/scenarios/scenario.js';
import { unknownRefundScenario } from '../apps/cli/src/scenarios/page-unknown-refund.js';
import { EXAMPLE_TRACE_SETTINGS } from '../apps/cli/src/scenarios/rfc-scenarios.js';
import { launchChromium } from '../test/dashboard/support/chromium.js';
import { HttpReceiver } from '../test/notifier/support/http-receiver.js';
import { writeNotifyFile } from '../test/notifier/support/notifier-harness.js';
import { slackMessageHtml } from './slack-preview.js';

const ROOT = join(import.meta.dirname, '..');
const API_KEY = 'screenshots-key-0123456789abcdef';
const ROUTING_KEY = 'YOUR_INTEGRATION_KEY';

const pd = await new HttpReceiver(() => ({ status: 202 })).start();
const slack = await new HttpReceiver(() => ({ status: 200, body: 'ok' })).start();
const dataDir = mkdtempSync(join(tmpdir(), 'tc-notifier-screenshots-'));
const notifyFile = writeNotifyFile({
  dashboardUrl: 'https://tokencircuit.example.com',
  sinks: {
    oncall: { type: 'pagerduty', routingKey: ROUTING_KEY, url: pd.url },
    chat: { type: 'slack', webhookUrl: `${slack.url}/services/T000/B000/XXXX` },
  },
  routes: [{ match: { level: ['page'] }, sinks: ['oncall', 'chat'] }],
});
const config = loadEmbeddedConfig({
  TOKENCIRCUIT_DATA_DIR: dataDir,
  TOKENCIRCUIT_API_KEYS: `acme:${API_KEY}`,
  API_HTTP_PORT: '0',
  TOKENCIRCUIT_NOTIFY_FILE: notifyFile,
  NOTIFIER_POLL_INTERVAL_MS: '50',
  LOG_LEVEL: 'silent',
});
const runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
const browser = await launchChromium({ width: 800, height: 1200 });
try {
  // The example-trace settings: fixed tenant, ids and times, so the payload in the docs is reproducible.
  const events = eventsOf(unknownRefundScenario(EXAMPLE_TRACE_SETTINGS));
  const sent = await fetch(`${runtime.url}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  if (sent.status !== 202) throw new Error(`POST /v1/events answered ${sent.status}: ${await sent.text()}`);
  await waitFor(() => pd.requests.length >= 1 && slack.requests.length >= 1, { maxWait: 60_000, name: 'the page' });

  const message = JSON.parse(slack.requests[0]!.body) as Parameters<typeof slackMessageHtml>[0];
  const page = await browser.context.newPage();
  await page.setContent(slackMessageHtml(message, 'TokenCircuit', '09:00'));
  const height = await page.evaluate(() => document.querySelector('.message')!.getBoundingClientRect().height);
  await page.screenshot({
    path: join(ROOT, 'docs/notifier-slack-page.png'),
    clip: { x: 0, y: 0, width: 800, height: Math.ceil(height) },
  });
  console.log(JSON.stringify(JSON.parse(pd.requests[0]!.body), null, 2));
  console.error('wrote docs/notifier-slack-page.png; above: the PagerDuty event for docs/notifier.md');
} finally {
  await browser.close();
  await runtime.stop();
  await pd.stop();
  await slack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
