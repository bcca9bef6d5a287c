import { lexSql, splitStatements, type SqlToken } from './sql-lexer.js';
import { READ_VERBS, SIDE_EFFECT_FUNCTIONS, WRITE_VERBS } from './sql-verbs.js';

/** What an SQL text may do to data: the basis of the "sql_verb:…" side-effect evidence. */
export interface SqlStatementEffect {
  /** write: some statement changes data or schema; unknown: one might (CALL, EXECUTE, unknown verb). */
  readonly effect: 'read' | 'write' | 'unknown';
  /** The verb of each statement, e.g. ["INSERT"], ["SELECT"], ["BEGIN", "UPDATE", "COMMIT"]. */
  readonly verbs: readonly string[];
  readonly evidence: readonly string[];
}

type Effect = SqlStatementEffect['effect'];
interface Analysis {
  readonly effect: Effect;
  readonly verb: string;
  readonly evidence: readonly string[];
}

const isPunct = (t: SqlToken | undefined, p: string): boolean => t?.kind === 'punct' && t.text === p;
const isWord = (t: SqlToken | undefined, w?: string): boolean =>
  t?.kind === 'word' && (w === undefined || t.text === w);

/** Index just past the parenthesised group opening at `open`. */
function closeOf(tokens: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (isPunct(tokens[i], '(')) depth++;
    if (isPunct(tokens[i], ')') && --depth === 0) return i + 1;
  }
  return tokens.length;
}

/** The tokens of a statement at parenthesis depth 0 (subqueries excluded). */
const topLevel = (tokens: readonly SqlToken[]): SqlToken[] => {
  const out: SqlToken[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0) out.push(t);
  }
  return out;
};

const worst = (a: Effect, b: Effect): Effect =>
  a === 'write' || b === 'write' ? 'write' : a === 'unknown' || b === 'unknown' ? 'unknown' : 'read';

function analyseSelect(tokens: readonly SqlToken[]): Analysis {
  const top = topLevel(tokens);
  const evidence: string[] = [];
  // SELECT … INTO new_table creates a table (MySQL's INTO OUTFILE writes a file).
  if (top.some((t) => isWord(t, 'INTO')))
    return { effect: 'write', verb: 'SELECT INTO', evidence: ['sql_verb:SELECT INTO'] };
  const forAt = top.findIndex(
    (t, i) => isWord(t, 'FOR') && ['UPDATE', 'NO', 'SHARE', 'KEY'].includes(top[i + 1]?.text ?? ''),
  );
  // Row locks are released by commit or rollback and change no data.
  if (forAt !== -1)
    evidence.push(
      `sql_lock:FOR ${top[forAt + 1]?.text === 'NO' ? 'NO KEY UPDATE' : top[forAt + 1]?.text === 'KEY' ? 'KEY SHARE' : top[forAt + 1]?.text}`,
    );
  const call = tokens.find((t, i) => isWord(t) && SIDE_EFFECT_FUNCTIONS.has(t.text) && isPunct(tokens[i + 1], '('));
  if (call)
    return {
      effect: 'write',
      verb: 'SELECT',
      evidence: ['sql_verb:SELECT', `sql_function:${call.text.toLowerCase()}`],
    };
  return { effect: 'read', verb: 'SELECT', evidence: ['sql_verb:SELECT', ...evidence] };
}

/** WITH [RECURSIVE] name [(cols)] AS [NOT] [MATERIALIZED] (body) [, …] main-statement. */
function analyseWith(tokens: readonly SqlToken[]): Analysis {
  let i = 1;
  if (isWord(tokens[i], 'RECURSIVE')) i++;
  let effect: Effect = 'read';
  const evidence: string[] = [];
  while (i < tokens.length) {
    i++; // the CTE name
    if (isPunct(tokens[i], '(')) i = closeOf(tokens, i);
    if (!isWord(tokens[i], 'AS')) break;
    i++;
    while (isWord(tokens[i], 'NOT') || isWord(tokens[i], 'MATERIALIZED')) i++;
    if (!isPunct(tokens[i], '(')) break;
    const end = closeOf(tokens, i);
    const body = analyse(tokens.slice(i + 1, end - 1));
    if (body.effect !== 'read') evidence.push(`sql_cte:${body.verb}`);
    effect = worst(effect, body.effect);
    i = end;
    while (isWord(tokens[i], 'SEARCH') || isWord(tokens[i], 'CYCLE')) {
      while (
        i < tokens.length &&
        !isPunct(tokens[i], ',') &&
        !(isWord(tokens[i]) && (WRITE_VERBS.has(tokens[i]?.text ?? '') || tokens[i]?.text === 'SELECT'))
      )
        i++;
    }
    if (!isPunct(tokens[i], ',')) break;
    i++;
  }
  const main = analyse(tokens.slice(i));
  return { effect: worst(effect, main.effect), verb: main.verb, evidence: [...main.evidence, ...evidence] };
}

/** EXPLAIN runs the statement only with ANALYZE: EXPLAIN ANALYZE DELETE … deletes. */
function analyseExplain(tokens: readonly SqlToken[]): Analysis {
  let i = 1;
  let analyze = false;
  if (isPunct(tokens[i], '(')) {
    const end = closeOf(tokens, i);
    const options = tokens.slice(i + 1, end - 1);
    const at = options.findIndex((t) => isWord(t, 'ANALYZE') || isWord(t, 'ANALYSE'));
    analyze = at !== -1 && !['FALSE', 'OFF', '0'].includes(options[at + 1]?.text ?? '');
    i = end;
  } else {
    while (isWord(tokens[i]) && ['ANALYZE', 'ANALYSE', 'VERBOSE'].includes(tokens[i]?.text ?? '')) {
      if (tokens[i]?.text !== 'VERBOSE') analyze = true;
      i++;
    }
  }
  const inner = analyse(tokens.slice(i));
  if (!analyze) return { effect: 'read', verb: 'EXPLAIN', evidence: ['sql_verb:EXPLAIN'] };
  return {
    effect: inner.effect,
    verb: `EXPLAIN ANALYZE ${inner.verb}`,
    evidence: ['sql_verb:EXPLAIN ANALYZE', ...inner.evidence],
  };
}

function analyse(tokens: readonly SqlToken[]): Analysis {
  let start = 0;
  while (isPunct(tokens[start], '(')) start++; // (SELECT …) UNION (SELECT …)
  const body = tokens.slice(start);
  const head = body[0];
  if (!head || head.kind !== 'word') return { effect: 'unknown', verb: 'NONE', evidence: ['sql_verb:none'] };
  const verb = head.text;
  switch (verb) {
    case 'WITH':
      return analyseWith(body);
    case 'EXPLAIN':
      return analyseExplain(body);
    case 'SELECT':
      return analyseSelect(body);
    case 'COPY': {
      // COPY … FROM loads rows; COPY … TO STDOUT only reads; COPY … TO 'file'/PROGRAM writes elsewhere.
      const top = topLevel(body);
      const to = top.findIndex((t) => isWord(t, 'TO'));
      const readOnly = to !== -1 && isWord(top[to + 1], 'STDOUT');
      return {
        effect: readOnly ? 'read' : 'write',
        verb: readOnly ? 'COPY TO STDOUT' : 'COPY',
        evidence: [`sql_verb:${readOnly ? 'COPY TO STDOUT' : 'COPY'}`],
      };
    }
    case 'PREPARE':
      // PREPARE TRANSACTION is a two-phase commit step; PREPARE name AS … only plans.
      if (isWord(body[1], 'TRANSACTION'))
        return { effect: 'write', verb: 'PREPARE TRANSACTION', evidence: ['sql_verb:PREPARE TRANSACTION'] };
      return { effect: 'read', verb: 'PREPARE', evidence: ['sql_verb:PREPARE'] };
    case 'COMMIT':
    case 'END':
      // A lone COMMIT commits whatever the session did before: its effect is not visible here.
      return { effect: 'unknown', verb: 'COMMIT', evidence: ['sql_verb:COMMIT'] };
    default:
      if (WRITE_VERBS.has(verb)) return { effect: 'write', verb, evidence: [`sql_verb:${verb}`] };
      if (READ_VERBS.has(verb)) return { effect: 'read', verb, evidence: [`sql_verb:${verb}`] };
      // CALL, DO, EXECUTE, PRAGMA and anything unrecognised may write.
      return { effect: 'unknown', verb, evidence: [`sql_verb:${verb}`] };
  }
}

/**
 * The data effect of an SQL text, from the leading verb of each statement (comments, literals and
 * CTE headers skipped). A batch is as dangerous as its most dangerous statement; a COMMIT that closes
 * a transaction this same text opened adds nothing of its own.
 */
export function sqlStatementEffect(sql: string): SqlStatementEffect {
  const statements = splitStatements(lexSql(sql)).map(analyse);
  if (statements.length === 0) return { effect: 'unknown', verbs: [], evidence: ['sql_verb:none'] };
  let effect: Effect = 'read';
  let opened = false;
  for (const s of statements) {
    if (s.verb === 'BEGIN' || s.verb === 'START') opened = true;
    effect = worst(effect, s.verb === 'COMMIT' && opened ? 'read' : s.effect);
  }
  const evidence = [...new Set(statements.flatMap((s) => s.evidence))].slice(0, 8);
  return { effect, verbs: statements.map((s) => s.verb), evidence };
}
