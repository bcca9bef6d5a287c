// Regenerates docs/dashboard-fleet.png and docs/dashboard-drilldown.png: the embedded runtime in a
// temporary folder, the RFC demo against it, then headless Chromium on the fleet view and on the
// drill-down of the demo's permission block. Run: npx tsx scripts/dashboard-screenshots.ts
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { loadEmbeddedConfig } from '../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded } from '../apps/fleet/src/fleet-modes.js';
import { buildDashboard, launchChromium } from '../test/dashboard/support/chromium.js';

const ROOT = join(import.meta.dirname, '..');
// Asynchronous: the server runs in this process and must keep answering while the CLI talks to it.
const cli = async (dataDir: string, url: string, ...args: string[]): Promise<string> =>
  (
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'bin/tokencircuit.mjs'), ...args, '--url', url, '--data-dir', dataDir],
      { cwd: ROOT, encoding: 'utf8' },
    )
  ).stdout;

buildDashboard();
const dataDir = mkdtempSync(join(tmpdir(), 'tc-screenshots-'));
const config = loadEmbeddedConfig({ TOKENCIRCUIT_DATA_DIR: dataDir, API_HTTP_PORT: '0', LOG_LEVEL: 'silent' });
const runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
const browser = await launchChromium({ width: 1280, height: 1000 });
try {
  await cli(dataDir, runtime.url, 'demo');
  const key = readFileSync(join(dataDir, 'api-keys'), 'utf8').trim().split(':')[1]!;
  const page = await browser.context.newPage();
  await page.goto((await cli(dataDir, runtime.url, 'dashboard', '--print-url')).trim());
  await page.locator('table.held tbody tr').first().waitFor();
  await page.locator('.live-live').waitFor();
  await page.screenshot({
    path: join(ROOT, 'docs/dashboard-fleet.png'),
    clip: { x: 0, y: 0, width: 1280, height: 1000 },
  });

  const response = await fetch(`${runtime.url}/v1/audit/interventions?class=permission&limit=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const { items } = (await response.json()) as { items: { id: string }[] };
  await page.goto(`${runtime.url}/dashboard/#/interventions/${encodeURIComponent(items[0]!.id)}`);
  await page.locator('#drill-title').waitFor();
  await page.screenshot({
    path: join(ROOT, 'docs/dashboard-drilldown.png'),
    clip: { x: 0, y: 0, width: 1280, height: 1000 },
  });
  console.log('wrote docs/dashboard-fleet.png and docs/dashboard-drilldown.png');
} finally {
  await browser.close();
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
