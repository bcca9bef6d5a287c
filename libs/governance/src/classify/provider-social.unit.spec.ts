import { describe, expect, it } from 'vitest';
import { messageMeaning } from './message-text.js';
import { providerCodesIn, scopedCodeInText, scopedProviderMeaning } from './provider-scoped.js';

describe('social, messaging and workspace APIs: codes read only under the declared provider', () => {
  it("reads Meta's Graph API and WhatsApp Cloud API codes under Meta's names only", () => {
    expect(scopedProviderMeaning('facebook', '190')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('instagram', '80002')?.failureClass).toBe('transient');
    expect(scopedProviderMeaning('facebook', '250')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('whatsapp', '131048')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('whatsapp', '130429')?.failureClass).toBe('transient');
    expect(scopedProviderMeaning('whatsapp', '132001')?.failureClass).toBe('missing_resource');
    expect(scopedProviderMeaning('meta', '506')).toMatchObject({
      failureClass: 'invariant_violation',
      duplicateOnRetry: true,
    });
    // 100 "Invalid parameter" is a catch-all: its text refines it (subcode 33's "does not exist").
    expect(scopedProviderMeaning('facebook', '100')?.generic).toBe(true);
    expect(scopedProviderMeaning('github', '190')).toBeNull();
    expect(scopedProviderMeaning(null, '80002')).toBeNull();
    // 131026 and 133010 have several documented causes: not tabled.
    expect(scopedProviderMeaning('whatsapp', '131026')).toBeNull();
  });

  it("reads X's v2 problem types and v1.1 codes, Zoom's numbers, Mailchimp's titles and Freshdesk's codes", () => {
    expect(scopedProviderMeaning('x', 'usage-capped')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('twitter', '187')?.failureClass).toBe('invariant_violation');
    expect(scopedProviderMeaning('twitter', '88')?.failureClass).toBe('transient');
    expect(scopedProviderMeaning('zoom', '124')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('zoom', '300')?.generic).toBe(true);
    expect(scopedProviderMeaning('mailchimp', 'Member Exists')?.failureClass).toBe('invariant_violation');
    expect(scopedProviderMeaning('mailchimp', 'Forgotten Email Not Subscribed')?.failureClass).toBe('permission');
    expect(scopedCodeInText('freshdesk', '{"code":"require_feature","message":"…"}')?.failureClass).toBe('permission');
    expect(scopedProviderMeaning('stripe', 'Member Exists')).toBeNull();
    expect(scopedProviderMeaning('slack', '187')).toBeNull();
  });

  it('reads the formats that name these codes: Graph\'s "(#N)", tweepy\'s "N - …", a v2 problem URI, a title', () => {
    expect(providerCodesIn('(#100) Invalid parameter')).toEqual(['100']);
    expect(providerCodesIn('403 Forbidden\n187 - Status is a duplicate.')).toEqual(['187']);
    expect(
      providerCodesIn('{"type":"https://api.twitter.com/2/problems/usage-capped","title":"UsageCapExceeded"}'),
    ).toEqual(['usage-capped', 'UsageCapExceeded']);
    expect(providerCodesIn('{"title":"Member Exists","status":400}')).toEqual(['Member Exists']);
    expect(providerCodesIn('Member Exists: a@b.c is already a list member.')).toEqual(['Member Exists']);
    // Near misses: a dash inside a line, a lower-case lead, a title field's suffix ("error_user_title").
    expect(providerCodesIn('Step 1 - done')).toEqual([]);
    expect(providerCodesIn('error: something failed')).toEqual([]);
    expect(providerCodesIn('{"error_user_title":"Session Expired"}')).toEqual([]);
  });
});

describe("messageMeaning: the eighteenth probe's phrases", () => {
  it.each([
    ['Daily Limit Exceeded', 'daily_limit', 'permission'],
    [
      'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.',
      'daily_limit',
      'permission',
    ],
    ['You have reached the maximum daily rate limit for this API.', 'daily_limit', 'permission'],
    ['User is over daily status update limit.', 'daily_limit', 'permission'],
    ['User rate limit exceeded.', 'rate_limited', 'transient'],
    ['Rate limit exceeded; the daily report will retry', 'rate_limited', 'transient'],
    ['Status is a duplicate.', 'already_exists', 'invariant_violation'],
    ['Content is a duplicate of urn:li:share:7000000000000000000', 'already_exists', 'invariant_violation'],
    ['The user does not have sufficient permissions for file 1AbC.', 'permission_denied', 'permission'],
  ])('reads %j as %s (%s)', (text, reason, failureClass) => {
    expect(messageMeaning(text)).toMatchObject({ reason: `message:${reason}`, failureClass });
  });

  it('leaves near misses alone', () => {
    expect(messageMeaning('the list is a duplicate-free set')).toBeNull();
    expect(messageMeaning('daily digest sent')).toBeNull();
  });
});
