import { marker, type SecretRule } from '../secret-rule.js';

/**
 * Every armored block, whatever its label: RFC 7468 PEM (`-----BEGIN <LABEL>-----`, PRIVATE KEY, RSA / EC
 * / DSA / OPENSSH / ENCRYPTED PRIVATE KEY, CERTIFICATE, PARAMETERS, …), OpenPGP ASCII armor (RFC 4880 §6.2,
 * `-----BEGIN PGP PRIVATE KEY BLOCK-----`, PGP MESSAGE) and RFC 4716 SSH2 keys (`---- BEGIN SSH2 … ----`).
 * The label is the sender's word, not a proof (a key pasted inside a CERTIFICATE block is still a key), and
 * a block is never an identifier, so all of them go. A block cut off before its END line goes to the end of
 * the text. Private-key labels become "[REDACTED:private_key]", every other block "[REDACTED:pem_block]".
 */
const LABEL = String.raw`[A-Za-z0-9](?:[A-Za-z0-9._/]| (?! ))*?`;
const PRIVATE_LABEL = /PRIVATE|SECRET|ENCRYPTED/i;

export const PEM_RULES: readonly SecretRule[] = [
  {
    kind: 'pem_block',
    triggers: ['begin '],
    pattern: new RegExp(String.raw`-{4,5} ?BEGIN (${LABEL}) ?-{4,5}[\s\S]*?(?:-{4,5} ?END [^\r\n]*?-{4,5}|$)`, 'gi'),
    replace: (_m, label: string) => marker(PRIVATE_LABEL.test(label) ? 'private_key' : 'pem_block'),
  },
];
