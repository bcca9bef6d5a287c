import { describe, expect, it } from 'vitest';
import { nameKey } from './provider-table.js';
import { bareName, isContentFreeName, PROVIDER_GROUPS, providerMeaning } from './provider-codes.js';

describe('provider tables', () => {
  it('never give one normalised name two meanings', () => {
    const seen = new Map<string, { provider: string; name: string; json: string }>();
    const conflicts: string[] = [];
    for (const group of PROVIDER_GROUPS) {
      for (const [semantics, names] of group.entries) {
        for (const name of names) {
          const key = nameKey(name);
          const json = JSON.stringify(semantics);
          const earlier = seen.get(key);
          if (earlier && earlier.json !== json)
            conflicts.push(`${earlier.provider}:${earlier.name} vs ${group.provider}:${name}`);
          if (!earlier) seen.set(key, { provider: group.provider, name, json });
        }
      }
    }
    expect(conflicts).toEqual([]);
  });

  it('name where each group is documented', () => {
    for (const group of PROVIDER_GROUPS) expect(group.source).toMatch(/^https:\/\//);
  });

  it('match the spellings SDKs use for the same code', () => {
    expect(providerMeaning('rate_limit_exceeded')?.failureClass).toBe('transient');
    expect(providerMeaning('RateLimitExceeded')?.failureClass).toBe('transient');
  });

  it('see through AWS __type namespaces and SOAP prefixes', () => {
    expect(bareName('com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException')).toBe(
      'ConditionalCheckFailedException',
    );
    expect(bareName('Client.UnauthorizedOperation')).toBe('UnauthorizedOperation');
    expect(providerMeaning('Server.InternalError')?.reason).toBe('provider:InternalError');
  });

  it('treat wrapper class names as saying nothing', () => {
    for (const n of ['Error', 'HttpError', 'AxiosError', 'ClientError', 'McpError'])
      expect(isContentFreeName(n)).toBe(true);
    expect(isContentFreeName('ThrottlingException')).toBe(false);
  });
});
