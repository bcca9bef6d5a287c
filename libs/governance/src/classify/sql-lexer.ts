/** A lexical token of SQL text; literals and comments are consumed so their words never count. */
export interface SqlToken {
  readonly kind: 'word' | 'quoted' | 'literal' | 'punct';
  /** Upper-cased for words; the raw character for punctuation. */
  readonly text: string;
}

const isWordStart = (c: string): boolean => /[A-Za-z_\u0080-\uFFFF]/.test(c);
const isWordPart = (c: string): boolean => /[A-Za-z0-9_$\u0080-\uFFFF]/.test(c);

/** Index just past a quoted run that ends with `quote`; a doubled quote is an escaped quote. */
function skipQuoted(sql: string, from: number, quote: string, backslashEscapes: boolean): number {
  let i = from;
  while (i < sql.length) {
    const c = sql[i];
    if (backslashEscapes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length; // unterminated: the rest is literal
}

/** Index just past a block comment starting at `from` ("/*"); PostgreSQL block comments nest. */
function skipBlockComment(sql: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth++;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return sql.length;
}

/**
 * Tokenises SQL well enough to find statement verbs: skips -- and nested block comments, '…' and
 * E'…' strings, $tag$…$tag$ bodies, "…" and `…` identifiers. Never throws: unterminated constructs
 * run to the end of the text.
 */
export function lexSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      i = skipBlockComment(sql, i);
    } else if (c === "'") {
      i = skipQuoted(sql, i + 1, "'", false);
      tokens.push({ kind: 'literal', text: "'" });
    } else if (/[EeBbXxNn]/.test(c) && sql[i + 1] === "'") {
      i = skipQuoted(sql, i + 2, "'", c === 'E' || c === 'e');
      tokens.push({ kind: 'literal', text: "'" });
    } else if (c === '"' || c === '`') {
      const end = skipQuoted(sql, i + 1, c, false);
      tokens.push({ kind: 'quoted', text: sql.slice(i + 1, Math.max(i + 1, end - 1)) });
      i = end;
    } else if (c === '$') {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? sql.length : close + tag[0].length;
        tokens.push({ kind: 'literal', text: '$' });
      } else {
        i++;
        while (i < sql.length && /[0-9]/.test(sql[i] as string)) i++;
        tokens.push({ kind: 'literal', text: '$' });
      }
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (j < sql.length && isWordPart(sql[j] as string)) j++;
      tokens.push({ kind: 'word', text: sql.slice(i, j).toUpperCase() });
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[0-9.eE]/.test(sql[j] as string)) j++;
      tokens.push({ kind: 'literal', text: sql.slice(i, j) });
      i = j;
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

/** Splits tokens into statements at semicolons outside parentheses. */
export function splitStatements(tokens: readonly SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let current: SqlToken[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === '(') depth++;
    if (t.kind === 'punct' && t.text === ')') depth = Math.max(0, depth - 1);
    if (t.kind === 'punct' && t.text === ';' && depth === 0) {
      if (current.length > 0) statements.push(current);
      current = [];
    } else current.push(t);
  }
  if (current.length > 0) statements.push(current);
  return statements;
}
