import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { usageError } from '../io/exit-codes.js';

/** Which running instance the API commands talk to, and as whom. */
export interface ApiTarget {
  readonly url: string;
  readonly apiKey: string;
  /** Known when the key came from the embedded server's key file ("tenant:key"); else asked of the API. */
  readonly tenant: string | null;
  /** Where the key came from, for messages (never the key itself). */
  readonly keySource: string;
}

export interface ApiTargetOptions {
  readonly url?: string;
  readonly apiKey?: string;
  readonly dataDir?: string;
}

export const DEFAULT_API_URL = 'http://127.0.0.1:8080';

/**
 * --url, else $TOKENCIRCUIT_URL, else the URL the embedded server recorded in <data dir>/api-url when it
 * started (so API_HTTP_PORT=9000 npm start is found), else the embedded server's default address. The key: --api-key,
 * else $TOKENCIRCUIT_API_KEY, else the first entry of <data dir>/api-keys, which `npm start` writes
 * in embedded mode (data dir: --data-dir, $TOKENCIRCUIT_DATA_DIR, ./.data).
 */
export function apiTarget(
  options: ApiTargetOptions,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): ApiTarget {
  const dataDir = resolve(cwd, options.dataDir ?? env.TOKENCIRCUIT_DATA_DIR ?? '.data');
  const url = normaliseUrl(options.url ?? env.TOKENCIRCUIT_URL ?? recordedUrl(dataDir) ?? DEFAULT_API_URL);
  if (options.apiKey) return { url, apiKey: options.apiKey, tenant: null, keySource: '--api-key' };
  if (env.TOKENCIRCUIT_API_KEY)
    return { url, apiKey: env.TOKENCIRCUIT_API_KEY, tenant: null, keySource: 'TOKENCIRCUIT_API_KEY' };
  const file = resolve(dataDir, 'api-keys');
  if (!existsSync(file)) {
    throw usageError(
      `no API key: pass --api-key, set TOKENCIRCUIT_API_KEY, or start the embedded server (npm start), which writes ${file}`,
    );
  }
  const entry = readFileSync(file, 'utf8')
    .split(/[\n,]/)
    .map((part) => part.trim())
    .find((part) => part !== '');
  const colon = entry?.indexOf(':') ?? -1;
  if (entry === undefined || colon <= 0 || colon === entry.length - 1) {
    throw usageError(`${file}: expected "tenant:key" on its first line`);
  }
  return { url, apiKey: entry.slice(colon + 1).trim(), tenant: entry.slice(0, colon).trim(), keySource: file };
}

function normaliseUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw usageError(`--url: "${raw}" is not a URL (e.g. ${DEFAULT_API_URL})`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw usageError(`--url: "${raw}" must be http:// or https://`);
  }
  return parsed.toString().replace(/\/+$/, '');
}

/** The URL `npm start` (embedded) recorded beside its api-keys, if it did. */
function recordedUrl(dataDir: string): string | undefined {
  const file = resolve(dataDir, 'api-url');
  if (!existsSync(file)) return undefined;
  const url = readFileSync(file, 'utf8').trim();
  return url === '' ? undefined : url;
}
