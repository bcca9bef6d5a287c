import { describe, expect, it } from 'vitest';
import { sqlStatementEffect } from './sql-statement.js';

const effectOf = (sql: string) => sqlStatementEffect(sql).effect;

describe('sqlStatementEffect', () => {
  it.each([
    ['SELECT * FROM users', 'read'],
    ['select 1', 'read'],
    ['VALUES (1), (2)', 'read'],
    ['TABLE users', 'read'],
    ['SHOW search_path', 'read'],
    ['INSERT INTO t VALUES (1)', 'write'],
    ['UPDATE t SET a = 1', 'write'],
    ['DELETE FROM t', 'write'],
    ['MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a', 'write'],
    ['TRUNCATE t', 'write'],
    ['CREATE TABLE t (id int)', 'write'],
    ['ALTER TABLE t ADD COLUMN b int', 'write'],
    ['DROP TABLE IF EXISTS t', 'write'],
    ['GRANT SELECT ON t TO bob', 'write'],
    ['REPLACE INTO t VALUES (1)', 'write'],
    ['CALL archive_old_rows()', 'unknown'],
    ['DO $$ BEGIN PERFORM 1; END $$', 'unknown'],
    ['EXECUTE prepared_stmt(1)', 'unknown'],
  ] as const)('%s → %s', (sql, effect) => {
    expect(effectOf(sql)).toBe(effect);
  });

  describe('skips what is not a verb', () => {
    it('line and nested block comments', () => {
      expect(sqlStatementEffect('-- SELECT first\n/* outer /* inner */ still comment */ DELETE FROM t').verbs).toEqual([
        'DELETE',
      ]);
    });

    it('string literals, E-strings, dollar-quoted bodies and quoted identifiers', () => {
      expect(effectOf("SELECT 'DELETE FROM t; INSERT' AS s, E'\\'; DROP TABLE x' FROM t")).toBe('read');
      expect(effectOf('SELECT $body$; DELETE FROM t; $body$')).toBe('read');
      expect(effectOf('SELECT "delete" FROM "insert"')).toBe('read');
    });

    it('leading parentheses of a set operation', () => {
      expect(sqlStatementEffect('(SELECT 1) UNION (SELECT 2)').verbs).toEqual(['SELECT']);
    });
  });

  describe('CTEs', () => {
    it('reads the main statement after the CTE list: WITH … INSERT is a write', () => {
      const e = sqlStatementEffect('WITH src AS (SELECT * FROM staging) INSERT INTO t SELECT * FROM src');
      expect(e).toMatchObject({ effect: 'write', verbs: ['INSERT'] });
    });

    it('catches a data-modifying CTE under a SELECT', () => {
      const e = sqlStatementEffect(
        'WITH RECURSIVE gone (id) AS MATERIALIZED (DELETE FROM t RETURNING id), x AS (SELECT 1) SELECT * FROM gone',
      );
      expect(e.effect).toBe('write');
      expect(e.evidence).toContain('sql_cte:DELETE');
    });

    it('keeps a read-only CTE a read', () => {
      expect(effectOf('WITH a AS (SELECT 1), b AS NOT MATERIALIZED (SELECT 2) SELECT * FROM a, b')).toBe('read');
    });
  });

  describe('SELECT variants', () => {
    it('SELECT … FOR UPDATE only locks rows', () => {
      const e = sqlStatementEffect('SELECT * FROM jobs WHERE id = 1 FOR NO KEY UPDATE SKIP LOCKED');
      expect(e.effect).toBe('read');
      expect(e.evidence).toContain('sql_lock:FOR NO KEY UPDATE');
    });

    it('SELECT … INTO creates a table', () => {
      expect(sqlStatementEffect('SELECT * INTO backup_users FROM users')).toMatchObject({
        effect: 'write',
        verbs: ['SELECT INTO'],
      });
    });

    it('an INTO inside a subquery does not count, a side-effecting function does', () => {
      expect(effectOf("SELECT dblink_exec('conn', 'DELETE FROM t')")).toBe('write');
      expect(effectOf("SELECT pg_notify('jobs', 'go')")).toBe('write');
    });
  });

  describe('EXPLAIN', () => {
    it('without ANALYZE only plans', () => {
      expect(effectOf('EXPLAIN DELETE FROM t')).toBe('read');
      expect(effectOf('EXPLAIN (VERBOSE, ANALYZE false) DELETE FROM t')).toBe('read');
      expect(effectOf('EXPLAIN (ANALYZE 0) UPDATE t SET a = 1')).toBe('read');
    });

    it('with ANALYZE runs the statement', () => {
      expect(effectOf('EXPLAIN ANALYZE DELETE FROM t')).toBe('write');
      expect(effectOf('EXPLAIN ANALYSE VERBOSE UPDATE t SET a = 1')).toBe('write');
      expect(effectOf('EXPLAIN (ANALYZE, BUFFERS) INSERT INTO t VALUES (1)')).toBe('write');
      expect(effectOf('EXPLAIN (ANALYZE true) SELECT 1')).toBe('read');
    });
  });

  describe('COPY', () => {
    it('COPY … FROM loads rows; COPY … TO STDOUT only reads', () => {
      expect(effectOf('COPY t FROM STDIN')).toBe('write');
      expect(effectOf('COPY (SELECT * FROM t) TO STDOUT WITH CSV')).toBe('read');
      expect(effectOf("COPY t TO '/tmp/out.csv'")).toBe('write');
    });
  });

  describe('batches and transactions', () => {
    it('is as dangerous as its most dangerous statement', () => {
      expect(sqlStatementEffect('BEGIN; SELECT 1; UPDATE t SET a = 1; COMMIT;')).toMatchObject({
        effect: 'write',
        verbs: ['BEGIN', 'SELECT', 'UPDATE', 'COMMIT'],
      });
    });

    it('a read-only transaction stays a read', () => {
      expect(effectOf('BEGIN; SET LOCAL statement_timeout = 1000; SELECT 1; COMMIT')).toBe('read');
    });

    it('a lone COMMIT commits what came before it, unseen: unknown', () => {
      expect(effectOf('COMMIT')).toBe('unknown');
    });

    it('PREPARE name AS … plans; PREPARE TRANSACTION is a two-phase commit step', () => {
      expect(effectOf('PREPARE q AS SELECT 1')).toBe('read');
      expect(effectOf("PREPARE TRANSACTION 'tx1'")).toBe('write');
    });

    it('ignores empty statements', () => {
      expect(sqlStatementEffect(';;SELECT 1;;').verbs).toEqual(['SELECT']);
    });
  });

  it('calls text without any statement unknown instead of guessing', () => {
    expect(sqlStatementEffect('  -- nothing here\n')).toMatchObject({ effect: 'unknown', verbs: [] });
  });

  it('survives unterminated strings and comments', () => {
    expect(effectOf("SELECT 'unterminated")).toBe('read');
    expect(effectOf('DELETE FROM t /* unterminated')).toBe('write');
  });
});
