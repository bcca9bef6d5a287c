import { invariant, missingResource, permission, transient, validation, type Semantics } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

const dup = { duplicateOnRetry: true } as const;
const notSent = (s: Semantics): Semantics => ({ ...s, effect: 'not_sent' });

/**
 * LDAP result codes (RFC 4511 §4.1.9 and Appendix A) by number, read from JNDI's "LDAP: error code 49 - …"
 * and python-ldap's {'result': 49, …}; ldapjs names them as error classes (LDAP below).
 */
export const LDAP_NUMBERS: ReadonlyMap<number, readonly [string, Semantics]> = new Map<
  number,
  readonly [string, Semantics]
>([
  [1, ['operationsError', transient('rejected', { generic: true })]],
  [2, ['protocolError', validation()]],
  [3, ['timeLimitExceeded', transient('indeterminate')]],
  [4, ['sizeLimitExceeded', validation()]],
  [7, ['authMethodNotSupported', permission()]],
  [8, ['strongerAuthRequired', permission()]],
  [11, ['adminLimitExceeded', validation()]],
  [13, ['confidentialityRequired', permission()]],
  [16, ['noSuchAttribute', missingResource()]],
  [17, ['undefinedAttributeType', validation()]],
  [18, ['inappropriateMatching', validation()]],
  [19, ['constraintViolation', validation()]],
  [20, ['attributeOrValueExists', invariant('rejected', dup)]],
  [21, ['invalidAttributeSyntax', validation()]],
  [32, ['noSuchObject', missingResource()]],
  [34, ['invalidDNSyntax', validation()]],
  [48, ['inappropriateAuthentication', permission()]],
  [49, ['invalidCredentials', permission()]],
  [50, ['insufficientAccessRights', permission()]],
  [51, ['busy', transient('rejected')]],
  [52, ['unavailable', transient('rejected')]],
  [53, ['unwillingToPerform', permission({ generic: true })]],
  [54, ['loopDetect', invariant()]],
  [64, ['namingViolation', validation()]],
  [65, ['objectClassViolation', validation()]],
  [66, ['notAllowedOnNonLeaf', invariant()]],
  [67, ['notAllowedOnRDN', validation()]],
  [68, ['entryAlreadyExists', invariant('rejected', dup)]],
  [69, ['objectClassModsProhibited', validation()]],
  [80, ['other', transient('indeterminate', { generic: true })]],
]);

/** ldapjs's error class names ("InvalidCredentialsError") for the same codes. */
export const LDAP: ProviderGroup = {
  provider: 'ldap',
  source: 'https://www.rfc-editor.org/rfc/rfc4511#section-4.1.9',
  entries: [...LDAP_NUMBERS.values()]
    .filter(([name]) => name !== 'other' && name !== 'busy' && name !== 'unavailable')
    .map(([name, semantics]) => [semantics, [`${name[0]!.toUpperCase()}${name.slice(1)}Error`]] as const),
};

/**
 * DNS response codes (RFC 1035 §4.1.1, RFC 2136, https://www.iana.org/assignments/dns-parameters), as
 * resolvers and dig print them: the lookup failed before any request to the named host was sent.
 */
export const DNS: ProviderGroup = {
  provider: 'dns',
  source: 'https://www.rfc-editor.org/rfc/rfc1035#section-4.1.1',
  entries: [
    [notSent(missingResource()), ['NXDOMAIN']],
    [notSent(transient('rejected')), ['SERVFAIL']],
    [notSent(validation()), ['FORMERR', 'NOTIMP']],
  ],
};
