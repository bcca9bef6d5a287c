import { describe, expect, it } from 'vitest';
import { ftpReplyMeaning } from './ftp-reply.js';

describe('ftpReplyMeaning (RFC 959 §4.2, RFC 2228)', () => {
  it('reads nothing into positive and intermediate replies', () => {
    for (const code of [150, 226, 250, 331, 350]) expect(ftpReplyMeaning(code)).toBeNull();
  });

  it('reads the negative replies by their documented meaning', () => {
    const of = (code: number) => {
      const m = ftpReplyMeaning(code)!;
      return [m.failureClass, m.effect];
    };
    expect(of(421)).toEqual(['transient', 'rejected']);
    expect(of(426)).toEqual(['transient', 'indeterminate']); // transfer aborted part-way
    expect(of(450)).toEqual(['transient', 'rejected']);
    expect(of(530)).toEqual(['permission', 'rejected']);
    expect(of(550)).toEqual(['missing_resource', 'rejected']);
    expect(of(553)).toEqual(['validation', 'rejected']);
    expect(of(501)).toEqual(['validation', 'rejected']);
  });
});
