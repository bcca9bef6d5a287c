import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { smtpReplyMeaning } from './smtp-reply.js';

describe('smtpReplyMeaning (RFC 5321 reply codes, RFC 3463 enhanced status codes)', () => {
  it('reads nothing into a positive reply', () => {
    for (const code of [220, 250, 251, 354]) expect(smtpReplyMeaning({ code, enhanced: null })).toBeNull();
  });

  it('takes every 4yz reply as transient and refused, whatever its enhanced code says', () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 499 }), fc.nat(9), fc.nat(30), (code, subject, detail) => {
        const meaning = smtpReplyMeaning({ code, enhanced: `4.${subject}.${detail}` })!;
        expect(meaning.failureClass).toBe('transient');
        expect(meaning.effect).toBe('rejected');
      }),
    );
  });

  it('refuses every negative reply before carrying it out: no effect to reconcile', () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), fc.option(fc.tuple(fc.nat(9), fc.nat(30))), (code, sub) => {
        const cls = Math.floor(code / 100);
        const enhanced = sub === null ? null : `${cls}.${sub[0]}.${sub[1]}`;
        expect(smtpReplyMeaning({ code, enhanced })?.effect).toBe('rejected');
      }),
    );
  });

  it('reads the enhanced code by its subject', () => {
    const classOf = (enhanced: string) => smtpReplyMeaning({ code: 550, enhanced })?.failureClass;
    expect(classOf('5.1.1')).toBe('missing_resource'); // bad destination mailbox
    expect(classOf('5.1.3')).toBe('validation'); // bad destination mailbox address syntax
    expect(classOf('5.2.2')).toBe('transient'); // mailbox full
    expect(classOf('5.3.4')).toBe('validation'); // message too big for system
    expect(classOf('5.4.4')).toBe('missing_resource'); // unable to route
    expect(classOf('5.5.2')).toBe('validation'); // syntax error
    expect(classOf('5.7.1')).toBe('permission'); // delivery not authorised
    expect(classOf('5.7.8')).toBe('permission'); // authentication credentials invalid
  });

  it('ignores an enhanced code whose class contradicts the reply and reads the reply alone', () => {
    expect(smtpReplyMeaning({ code: 550, enhanced: '4.2.2' })).toMatchObject({
      failureClass: 'missing_resource',
      reason: 'smtp:550',
    });
  });

  it('reads the basic reply codes of servers without enhanced codes', () => {
    const classOf = (code: number) => smtpReplyMeaning({ code, enhanced: null })?.failureClass;
    expect(classOf(421)).toBe('transient');
    expect(classOf(535)).toBe('permission');
    expect(classOf(530)).toBe('permission');
    expect(classOf(550)).toBe('missing_resource');
    expect(classOf(552)).toBe('transient'); // RFC 5321 §4.5.3.1.10: treat as temporary
    expect(classOf(553)).toBe('validation');
    expect(classOf(501)).toBe('validation');
    expect(classOf(554)).toBe('permission');
  });
});
