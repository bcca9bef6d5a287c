import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SECRET_RULES } from '../../libs/governance/src/redact/secret-rules.js';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/security.md', root), 'utf8');

// docs/security.md is the threat model: its rule list and the tests it cites must not drift from the code.
describe('docs/security.md', () => {
  it('lists every redaction rule, in the order the code applies them', () => {
    const listed = [...doc.matchAll(/^\| `([a-z0-9_]+)` +\| /gm)].map((m) => m[1]!);
    const kinds = [...new Set(SECRET_RULES.map((rule) => rule.kind))];
    expect(listed.filter((kind) => kinds.includes(kind))).toEqual(kinds);
  });

  it('cites only files that exist', () => {
    const cited = [...doc.matchAll(/`((?:test|libs|apps|migrations)\/[^`*]+?\.(?:ts|sql))`/g)].map((m) => m[1]!);
    expect(cited.length).toBeGreaterThan(20);
    for (const path of cited) expect(existsSync(new URL(path, root)), path).toBe(true);
  });
});
