import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiTarget } from './api-target.js';

const cwdWithKeyFile = (content: string, folder = '.data') => {
  const cwd = mkdtempSync(join(tmpdir(), 'tc-cli-'));
  mkdirSync(join(cwd, folder), { recursive: true });
  writeFileSync(join(cwd, folder, 'api-keys'), content);
  return cwd;
};

describe('apiTarget: which instance and which key the API commands use', () => {
  it('defaults to the embedded server and the key `npm start` wrote, whose tenant it then knows', () => {
    const cwd = cwdWithKeyFile('demo:tc_0123456789abcdef0123\n');
    expect(apiTarget({}, {}, cwd)).toEqual({
      url: 'http://127.0.0.1:8080',
      apiKey: 'tc_0123456789abcdef0123',
      tenant: 'demo',
      keySource: join(cwd, '.data', 'api-keys'),
    });
  });

  it('--api-key beats TOKENCIRCUIT_API_KEY, which beats the key file; --url beats TOKENCIRCUIT_URL', () => {
    const cwd = cwdWithKeyFile('demo:tc_from_file_0000000000');
    const env = { TOKENCIRCUIT_API_KEY: 'from-env-0123456789', TOKENCIRCUIT_URL: 'http://fleet.internal:9000/' };
    expect(apiTarget({ apiKey: 'from-flag-0123456789', url: 'https://tc.example' }, env, cwd)).toMatchObject({
      url: 'https://tc.example',
      apiKey: 'from-flag-0123456789',
      tenant: null,
    });
    expect(apiTarget({}, env, cwd)).toMatchObject({
      url: 'http://fleet.internal:9000',
      apiKey: 'from-env-0123456789',
      keySource: 'TOKENCIRCUIT_API_KEY',
    });
  });

  it('uses the URL the embedded server recorded beside its key; TOKENCIRCUIT_URL and --url still win', () => {
    const cwd = cwdWithKeyFile('demo:tc_0123456789abcdef0123\n');
    writeFileSync(join(cwd, '.data', 'api-url'), 'http://127.0.0.1:9123\n');
    expect(apiTarget({}, {}, cwd).url).toBe('http://127.0.0.1:9123');
    expect(apiTarget({}, { TOKENCIRCUIT_URL: 'http://127.0.0.1:7000' }, cwd).url).toBe('http://127.0.0.1:7000');
    expect(apiTarget({ url: 'http://127.0.0.1:7001' }, {}, cwd).url).toBe('http://127.0.0.1:7001');
  });

  it('finds the key file in --data-dir or TOKENCIRCUIT_DATA_DIR', () => {
    const cwd = cwdWithKeyFile('acme:tc_acme_key_0123456789', 'var/tc');
    expect(apiTarget({ dataDir: 'var/tc' }, {}, cwd)).toMatchObject({ tenant: 'acme' });
    expect(apiTarget({}, { TOKENCIRCUIT_DATA_DIR: 'var/tc' }, cwd)).toMatchObject({ tenant: 'acme' });
  });

  it('without any key it says the three ways to give one (exit 2)', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tc-cli-'));
    expect(() => apiTarget({}, {}, cwd)).toThrow(
      /no API key: pass --api-key, set TOKENCIRCUIT_API_KEY, or start the embedded server/,
    );
  });

  it('a malformed key file or URL is a clear usage error', () => {
    expect(() => apiTarget({}, {}, cwdWithKeyFile('just-a-key'))).toThrow(/expected "tenant:key"/);
    expect(() => apiTarget({ url: 'localhost:8080', apiKey: 'k' }, {}, '/')).toThrow(/--url: .* must be http/);
    expect(() => apiTarget({ url: 'not a url', apiKey: 'k' }, {}, '/')).toThrow(/is not a URL/);
  });
});
