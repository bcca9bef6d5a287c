import { describe, expect, it } from 'vitest';
import { neo4jStatusMeaning } from './neo4j-status.js';

describe('neo4jStatusMeaning (Neo.<classification>.<category>.<title>)', () => {
  it('takes the classification as the retry rule', () => {
    expect(neo4jStatusMeaning('Neo.TransientError.General.MemoryPoolOutOfMemoryError')).toMatchObject({
      failureClass: 'transient',
      effect: 'rolled_back',
    });
    expect(neo4jStatusMeaning('Neo.DatabaseError.General.UnknownError')?.effect).toBe('indeterminate');
    expect(neo4jStatusMeaning('Neo.ClientError.Statement.SyntaxError')?.failureClass).toBe('validation');
  });

  it('reads the category and title of client errors', () => {
    expect(neo4jStatusMeaning('Neo.ClientError.Security.Forbidden')?.failureClass).toBe('permission');
    expect(neo4jStatusMeaning('Neo.ClientError.Database.DatabaseNotFound')?.failureClass).toBe('missing_resource');
    expect(neo4jStatusMeaning('Neo.ClientError.Schema.ConstraintValidationFailed')).toMatchObject({
      failureClass: 'invariant_violation',
      duplicateOnRetry: true,
    });
  });

  it('finds the code inside a driver message and nothing in other text', () => {
    expect(neo4jStatusMeaning('{code: Neo.ClientError.Security.Unauthorized} {message: …}')?.reason).toBe(
      'neo4j:Neo.ClientError.Security.Unauthorized',
    );
    expect(neo4jStatusMeaning('Neo.Something')).toBeNull();
  });
});
