import { describe, expect, it } from 'vitest';
import { nameKey } from './provider-table.js';
import { bareName, isContentFreeName, PROVIDER_GROUPS, providerCodeInText, providerMeaning } from './provider-codes.js';

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

describe('providerCodeInText: the declared provider’s snake_case code named in the message', () => {
  it('finds the code the provider’s SDK put into the text', () => {
    expect(providerCodeInText('slack', 'An API error occurred: channel_not_found')?.reason).toBe(
      'provider:channel_not_found',
    );
    expect(providerCodeInText('Slack', "Failed to post message: 'missing_scope'")?.failureClass).toBe('permission');
    expect(providerCodeInText('stripe', 'Error: card_declined - Your card was declined.')?.failureClass).toBe(
      'validation',
    );
  });

  it('consults only the outcome’s own provider, and nothing without one', () => {
    expect(providerCodeInText(null, 'An API error occurred: channel_not_found')).toBeNull();
    expect(providerCodeInText('stripe', 'An API error occurred: channel_not_found')).toBeNull();
    expect(providerCodeInText('no-such-provider', 'channel_not_found')).toBeNull();
  });

  it('reads whole words only: not inside a path, a URL, a longer identifier or another case', () => {
    expect(providerCodeInText('slack', 'GET https://slack.com/api/channel_not_found/x failed')).toBeNull();
    expect(providerCodeInText('slack', 'my_channel_not_found_handler crashed')).toBeNull();
    expect(providerCodeInText('slack', 'CHANNEL_NOT_FOUND')).toBeNull();
    expect(providerCodeInText('slack', 'channel_not_found.log is missing')).toBeNull();
  });

  it('gives the first code the text names that the provider documents', () => {
    expect(providerCodeInText('slack', 'while handling some_other_word: not_in_channel')?.reason).toBe(
      'provider:not_in_channel',
    );
  });
  it("reads PayPal's and Square's upper snake case codes in the case they document them", () => {
    expect(providerCodeInText('paypal', 'INSTRUMENT_DECLINED')?.failureClass).toBe('validation');
    expect(providerCodeInText('paypal', 'DUPLICATE_INVOICE_ID: Duplicate Invoice ID detected.')?.failureClass).toBe(
      'invariant_violation',
    );
    expect(providerCodeInText('square', 'Payment failed: INSUFFICIENT_FUNDS')?.reason).toBe(
      'provider:INSUFFICIENT_FUNDS',
    );
    // Another provider's code, or the code in another case, is not this reply's code.
    expect(providerCodeInText('stripe', 'INSTRUMENT_DECLINED')).toBeNull();
    expect(providerCodeInText('square', 'card_declined')).toBeNull();
  });
  it("reads Box's documented codes in its text", () => {
    expect(providerCodeInText('box', 'item_name_in_use')?.failureClass).toBe('invariant_violation');
    expect(providerCodeInText('box', 'Conflict (409): item_name_in_use')?.reason).toBe('provider:item_name_in_use');
    expect(providerCodeInText('box', 'operation_blocked_temporary')?.failureClass).toBe('transient');
    expect(providerCodeInText('dropbox', 'item_name_in_use')).toBeNull();
  });
});
