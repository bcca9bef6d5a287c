import { describe, expect, it } from 'vitest';
import { redact, redactSecrets } from './redact.js';
import { redactRepeated, redactSecretsRepeated } from './redact.js';

describe('memoised redaction on the per-event path', () => {
  it('remembers a short text that holds a trigger but no secret, and answers it unchanged', () => {
    const text = 'api_endpoint';
    expect(redactRepeated(text)).toBe(redact(text));
    expect(redactRepeated.remembers(text)).toBe(redact(text) === text);
  });

  it('never keeps a text that held a secret, and still redacts it every time', () => {
    const secret = 'Forbidden: Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123456789 lacks scope';
    for (const [memoised, plain] of [
      [redactRepeated, redact],
      [redactSecretsRepeated, redactSecrets],
    ] as const) {
      const first = memoised(secret);
      expect(first).toBe(plain(secret));
      expect(first).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz0123456789');
      expect(memoised.remembers(secret)).toBe(false);
      expect(memoised(secret)).toBe(first);
    }
  });
});
