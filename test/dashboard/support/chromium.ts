import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium package; CI (.ci/run) installs it. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const NO_CHROMIUM_MESSAGE = `SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium): the dashboard browser tests need it`;

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The page's bundle as `npm ci` / `npm start` build it (a no-op when it is up to date). */
export function buildDashboard(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-dashboard.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a new, empty profile (--user-data-dir), removed on close. */
export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'tc-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
