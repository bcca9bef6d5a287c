import { describe, expect, it } from 'vitest';
import { nameKey } from './provider-table.js';
import {
  hasScopedTable,
  providerCodesIn,
  SCOPED_PROVIDER_GROUPS,
  scopedCodeInText,
  scopedProviderMeaning,
} from './provider-scoped.js';

describe('scoped provider tables: read only under the provider the outcome names', () => {
  it('name where each group is documented and give no name two meanings within one provider', () => {
    for (const group of SCOPED_PROVIDER_GROUPS) {
      expect(group.source).toMatch(/^https:\/\//);
      const seen = new Set<string>();
      for (const [, names] of group.entries)
        for (const name of names) {
          expect(seen.has(nameKey(name)), `${group.provider}:${name}`).toBe(false);
          seen.add(nameKey(name));
        }
    }
  });

  it('read a name in the declared provider (or an alias) only', () => {
    expect(scopedProviderMeaning('kubernetes', 'Expired')?.failureClass).toBe('transient');
    expect(scopedProviderMeaning('k8s', 'Conflict')?.generic).toBe(true);
    expect(scopedProviderMeaning('twilio', '21610')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('salesforce', 'REQUEST_LIMIT_EXCEEDED')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning(null, '21610')).toBeNull();
    expect(scopedProviderMeaning('discord', '21610')).toBeNull();
    expect(scopedProviderMeaning('aws', 'Expired')).toBeNull();
    expect(hasScopedTable('Notion')).toBe(true);
    expect(hasScopedTable('stripe')).toBe(false);
  });

  it("read the OCI Distribution Specification's codes only under a registry provider", () => {
    expect(scopedProviderMeaning('docker', 'DENIED')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('ghcr', 'TOOMANYREQUESTS')?.failureClass).toBe('transient');
    expect(scopedCodeInText('oci', 'NAME_UNKNOWN: repository name not known to registry')?.failureClass).toBe(
      'missing_resource',
    );
    expect(scopedCodeInText('quay', 'DIGEST_INVALID: provided digest did not match uploaded content')?.reason).toBe(
      'provider:DIGEST_INVALID',
    );
    expect(scopedProviderMeaning(null, 'DENIED')).toBeNull();
    expect(scopedProviderMeaning('github', 'UNSUPPORTED')).toBeNull();
  });

  it('find a documented code in a text only in its documented spelling', () => {
    expect(
      scopedCodeInText('microsoft-graph', 'quotaLimitReached: The user has reached their quota limit.')?.reason,
    ).toBe('provider:quotaLimitReached');
    expect(scopedCodeInText('notion', 'conflict_error: Conflict occurred while saving.')?.failureClass).toBe(
      'transient',
    );
    expect(scopedCodeInText('microsoft-graph', 'QUOTA_LIMIT_REACHED')).toBeNull();
    expect(scopedCodeInText('notion', 'quotaLimitReached')).toBeNull();
    expect(scopedCodeInText('microsoft-graph', 'see https://example.com/itemNotFound/x')).toBeNull();
  });

  it('read the formats that name a provider code: kubectl, discord.js, discord.py, a body numeric code', () => {
    expect(providerCodesIn('Error from server (Expired): too old resource version: 1 (2)')).toEqual(['Expired']);
    expect(providerCodesIn('DiscordAPIError[10008]: Unknown Message')).toEqual(['10008']);
    expect(providerCodesIn('404 Not Found (error code: 10003): Unknown Channel')).toEqual(['10003']);
    expect(
      providerCodesIn('{"code": 21610, "message": "Attempt to send to unsubscribed recipient", "status": 400}'),
    ).toEqual(['21610']);
    expect(providerCodesIn('Error: 1 records locked')).toEqual([]);
    expect(providerCodesIn(null)).toEqual([]);
  });
});
