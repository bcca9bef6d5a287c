import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DatabaseStartError, databaseRefusalOf } from './database-start-error.js';

const URL = 'postgres://svc:secret@db.internal:6543/fleet';

/** An error as node-postgres raises it for a server's ErrorResponse: its class, with the SQLSTATE as `code`. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

describe('databaseRefusalOf: a refused login is one line naming what to fix', () => {
  it('3D000: the database does not exist, naming it and npm run migrate (services never create one)', () => {
    const refusal = databaseRefusalOf(serverError('3D000', 'database "fleet" does not exist'), URL);
    expect(refusal).toBeInstanceOf(DatabaseStartError);
    expect(refusal).toMatchObject({ problem: 'missing_database' });
    expect(refusal!.message).toBe(
      'database "fleet" does not exist on db.internal:6543: services never create one; check DATABASE_URL, or create and migrate it with "npm run migrate"',
    );
  });

  it('28000 "role … does not exist": missing role, naming the user and DATABASE_URL', () => {
    const refusal = databaseRefusalOf(serverError('28000', 'role "svc" does not exist'), URL);
    expect(refusal).toMatchObject({ problem: 'missing_role' });
    expect(refusal!.message).toMatch(/^role "svc" does not exist on db\.internal:6543: check the user in DATABASE_URL/);
  });

  it('28P01: password refused, naming the user, never the password', () => {
    const refusal = databaseRefusalOf(serverError('28P01', 'password authentication failed for user "svc"'), URL);
    expect(refusal).toMatchObject({ problem: 'authentication' });
    expect(refusal!.message).toContain('check the password in DATABASE_URL');
    expect(refusal!.message).not.toContain('secret');
  });

  it('no password given where the server asks for SCRAM (a client-side error of node-postgres): authentication', () => {
    const refusal = databaseRefusalOf(
      new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'),
      'postgres://svc@db.internal/fleet',
    );
    expect(refusal).toMatchObject({ problem: 'authentication' });
  });

  it('sslmode=require against a server without TLS: tls, naming sslmode', () => {
    const refusal = databaseRefusalOf(new Error('The server does not support SSL connections'), URL);
    expect(refusal).toMatchObject({ problem: 'tls' });
    expect(refusal!.message).toContain('sslmode');
  });

  it('a server certificate not trusted (Node TLS codes): tls, naming sslrootcert', () => {
    const error = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    const refusal = databaseRefusalOf(error, URL);
    expect(refusal).toMatchObject({ problem: 'tls' });
    expect(refusal!.message).toContain('sslrootcert');
  });

  it('28000 "no pg_hba.conf entry … no encryption": the server requires TLS; other 28000 and 42501 CONNECT: refused', () => {
    const tls = databaseRefusalOf(
      serverError('28000', 'no pg_hba.conf entry for host "10.0.0.1", user "svc", database "fleet", no encryption'),
      URL,
    );
    expect(tls).toMatchObject({ problem: 'tls' });
    expect(tls!.message).toContain('sslmode=require');
    const hba = databaseRefusalOf(serverError('28000', 'pg_hba.conf rejects connection for host "10.0.0.1"'), URL);
    expect(hba).toMatchObject({ problem: 'refused' });
    const connect = databaseRefusalOf(serverError('42501', 'permission denied for database "fleet"'), URL);
    expect(connect).toMatchObject({ problem: 'refused' });
  });

  it('anything else is not a refusal: unreachable servers and statement errors are told elsewhere', () => {
    expect(
      databaseRefusalOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), URL),
    ).toBeNull();
    expect(databaseRefusalOf(serverError('42P01', 'relation "x" does not exist'), URL)).toBeNull();
    expect(databaseRefusalOf(serverError('42501', 'permission denied for table failure_state'), URL)).toBeNull();
    expect(databaseRefusalOf('a string', URL)).toBeNull();
  });
});
