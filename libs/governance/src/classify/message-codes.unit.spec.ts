import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldCodes, messageCodes, readCodes } from './message-codes.js';

// Fragments of every format messageCodes reads, in their real and in near-miss spellings.
const PIECES = [
  '{"code": "',
  "'error': '",
  '"status": 503',
  '<Code>NoSuchKey</Code>',
  'An error occurred (ThrottlingException) when calling',
  'an error occurred (x) when calling',
  'ReplyError: WRONGTYPE ',
  'NOAUTH ',
  'ER_DUP_ENTRY',
  'er_dup_entry',
  'Error 1062 (23000): ',
  'error ',
  'status code 503',
  'status code ',
  'HTTP/1.1 502',
  'http error ',
  'MCP error -32602',
  'mcp error -',
  'connect ECONNREFUSED',
  'connect econnrefused',
  'UND_ERR_SOCKET',
  'CERT_HAS_EXPIRED',
  'SQLSTATE 23505',
  'sqlstate abcde',
  'SqlState: xxxxx',
  '14 UNAVAILABLE: ',
  'rpc error: code = unavailable',
  'rpc error: code = Unavailable',
  'StatusCode.NOT_FOUND',
  'statuscode.not_found',
  'SQLITE_BUSY: ',
  'sqlite_busy',
  'database is locked',
  'Database is locked',
  'disk I/O error',
  '550 5.1.1 ',
  '550 4.1.1 ',
  '421-4.7.0 ',
  "(535, b'5.7.8 ",
  "(554, b'",
  '404 (NOT-FOUND)',
  'NOT_FOUND - ',
  'A_B - ',
  'LDAP: error code 49',
  "{'result': 32, 'desc': 'x'}",
  'NXDOMAIN',
  'nxdomain',
  'This server does not host this topic-partition',
  'this server does not host this topic-partition',
  "(406, 'PRECONDITION_FAILED - x')",
  'mkdir /x: file exists',
  ': File Exists',
  '[Errno 17] File exists',
  'the file exists',
  "Invalid object name '",
  "invalid object name '",
  'Incorrect syntax near',
  'String or binary data would be truncated',
  'Cannot add or update a child row: a foreign key constraint fails',
  "Column 'x' cannot be null",
  'column x cannot be null',
  'https response error StatusCode: 409, RequestID: r, ',
  'api error BucketAlreadyExists: ',
  'BucketAlreadyExists: ',
  '(AuthorizationFailed) ',
  'ERROR: (ResourceNotFound) ',
  '\nCode: ResourceNotFound\nMessage: ',
  '\ncode: x\nmessage: ',
  'Error from server: code=1000 [',
  'error from server: code=1000 [',
  'Code: 60. DB::Exception: x (UNKNOWN_TABLE)',
  'code: 60. db::exception: x (unknown_table)',
  'cancellation reasons for specific reasons [ValidationError]',
  'specific reasons [None, ThrottlingError]',
  'LDAP Result Code 50 "',
  'LDAPEntryAlreadyExistsResult - 68 - entryAlreadyExists - ',
  'NO [UNAVAILABLE] ',
  '-ERR [IN-USE] ',
  'no [unavailable] ',
  'Cannot achieve consistency level',
  'upstream unavailable',
  'not found',
  'Forbidden',
  ' ',
  ': ',
  '(',
  ')',
  '=',
  '.',
  '-',
  '_',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 6 })
  .map((parts) => parts.join(''));

describe('messageCodes: the shortcut for text that can hold no code', () => {
  it('skips only texts in which reading every pattern finds nothing', () => {
    let skipped = 0;
    fc.assert(
      fc.property(text, (t) => {
        if (mayHoldCodes(t)) return;
        skipped += 1;
        expect(readCodes(t)).toEqual(messageCodes(null));
      }),
      { numRuns: 3000 },
    );
    // The property must have been exercised on texts that come close to every format.
    expect(skipped).toBeGreaterThan(100);
  });

  it('answers the same as reading every pattern, whatever the text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(messageCodes(t)).toEqual(readCodes(t));
      }),
      { numRuns: 1000 },
    );
  });

  it('skips plain lower-case messages', () => {
    for (const t of ['upstream unavailable', 'not found', 'socket timeout', 'rate limited'])
      expect(mayHoldCodes(t)).toBe(false);
  });

  it('reads an SMTP reply only when its enhanced code repeats the reply class (RFC 3463), or in smtplib form', () => {
    expect(readCodes('550 5.1.1 <a@b.c>: user unknown').smtpReplies).toEqual([{ code: 550, enhanced: '5.1.1' }]);
    expect(readCodes('550 4.1.1 mismatched classes').smtpReplies).toEqual([]);
    expect(readCodes("(554, b'Transaction failed')").smtpReplies).toEqual([{ code: 554, enhanced: null }]);
    expect(readCodes('version 5.1.1 of the client').smtpReplies).toEqual([]);
  });

  it("names SQLite's fixed texts as the result codes they stand for", () => {
    expect(readCodes('database is locked').outerNames).toEqual(['SQLITE_BUSY']);
    expect(readCodes('SQLITE_IOERR_WRITE: disk I/O error').outerNames).toEqual(['SQLITE_IOERR_WRITE', 'SQLITE_IOERR']);
    expect(mayHoldCodes('database is locked')).toBe(true);
  });
});

describe('PostgreSQL message templates printed without their SQLSTATE', () => {
  it.each([
    ['null value in column "email" of relation "users" violates not-null constraint', '23502'],
    ['insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"', '23503'],
    ['duplicate key value violates unique constraint "users_email_key"', '23505'],
    ['new row for relation "orders" violates check constraint "orders_total_check"', '23514'],
    ['new row violates row-level security policy for table orders', '42501'],
    ['invalid input syntax for type integer: "abc"', '22P02'],
    ['value too long for type character varying(10)', '22001'],
  ])('reads %j as SQLSTATE %s', (text, state) => {
    expect(messageCodes(text).sqlState).toBe(state);
  });

  it('lets an explicit SQLSTATE in the text speak first, and finds nothing in prose without a template', () => {
    expect(messageCodes('ERROR: duplicate key value violates unique constraint "k" (SQLSTATE 23P01)').sqlState).toBe(
      '23P01',
    );
    expect(messageCodes('the policy violates nothing').sqlState).toBeNull();
  });
});

describe('SQL Server and MySQL message templates printed without their numbers', () => {
  it.each([
    ["Invalid object name 'dbo.orderz'.", 208],
    ["Invalid column name 'amountt'.", 207],
    ["Login failed for user 'app_reader'.", 18456],
    [
      "Cannot insert the value NULL into column 'email', table 'shop.dbo.users'; column does not allow nulls. INSERT fails.",
      515,
    ],
    ["The SELECT permission was denied on the object 'orders', database 'shop', schema 'dbo'.", 229],
    ["Incorrect syntax near 'FORM'.", 102],
    [
      "String or binary data would be truncated in table 'shop.dbo.users', column 'name'. Truncated value: 'Bart'.",
      2628,
    ],
    ['String or binary data would be truncated.', 8152],
  ])('reads %j as SQL Server error %i', (text, n) => {
    expect(messageCodes(text).sqlServerNumbers).toEqual([n]);
  });

  it.each([
    ['Cannot add or update a child row: a foreign key constraint fails (`shop`.`orders`, CONSTRAINT `fk`)', 1452],
    ['Cannot delete or update a parent row: a foreign key constraint fails', 1451],
    ["Column 'email' cannot be null", 1048],
  ])('reads %j as MySQL error %i', (text, n) => {
    expect(messageCodes(text).mysqlNumbers).toEqual([n]);
  });

  it('does not count a number twice when the text also prints it, and finds nothing in prose', () => {
    expect(
      messageCodes('ERROR 1452 (23000): Cannot add or update a child row: a foreign key constraint fails').mysqlNumbers,
    ).toEqual([1452]);
    expect(messageCodes('the name is invalid').sqlServerNumbers).toEqual([]);
    expect(messageCodes('a value that cannot be null').mysqlNumbers).toEqual([]);
  });
});

describe('cloud SDKs’ error formats', () => {
  it("reads the AWS SDK for Go v2's response error: the status and the service's code", () => {
    const s3 = messageCodes(
      'operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: 9Q2, HostID: abc=, BucketAlreadyExists: ',
    );
    expect(s3.outerNames).toContain('BucketAlreadyExists');
    expect(s3.httpStatus).toBe(409);
    const ec2 = messageCodes(
      'operation error EC2: RunInstances, https response error StatusCode: 403, RequestID: r1, api error UnauthorizedOperation: You are not authorized to perform this operation.',
    );
    expect(ec2.outerNames).toContain('UnauthorizedOperation');
    expect(ec2.httpStatus).toBe(403);
  });

  it("reads azure-core's HttpResponseError: the leading (Code) and the Code/Message lines", () => {
    expect(messageCodes("(ResourceGroupNotFound) Resource group 'rg' could not be found.").outerNames).toEqual([
      'ResourceGroupNotFound',
    ]);
    expect(messageCodes('ERROR: (AuthorizationFailed) The client x does not have authorization').outerNames).toContain(
      'AuthorizationFailed',
    );
    expect(messageCodes('Operation returned an invalid status\nCode: NotFound\nMessage: gone').outerNames).toContain(
      'NotFound',
    );
    expect(messageCodes('see the docs (Optional) for more').outerNames).toEqual([]);
  });

  it("reads Terraform azurerm's go-azure-sdk and autorest formats, and gcloud's google.rpc status", () => {
    const goSdk = messageCodes(
      'Error: deleting Resource Group "rg": unexpected status 409 (409 Conflict) with error: ScopeLocked: The scope is locked',
    );
    expect(goSdk.outerNames).toContain('ScopeLocked');
    expect(
      messageCodes('autorest/azure: Service returned an error. Status=403 Code="AuthorizationFailed" Message="no"')
        .outerNames,
    ).toContain('AuthorizationFailed');
    expect(messageCodes('unexpected status 409 with error: see above').outerNames).toEqual([]);
    expect(
      messageCodes("ERROR: (gcloud.projects.add-iam-policy-binding) PERMISSION_DENIED: Permission 'x' denied").grpcName,
    ).toBe('PERMISSION_DENIED');
    expect(messageCodes('ERROR: (gcloud.run.deploy) Deployment failed: see logs').grpcName).toBeNull();
  });
});

describe("data stores' and mail protocols' formats", () => {
  it("reads the Cassandra Python driver's hexadecimal protocol code and ClickHouse's code name", () => {
    expect(readCodes('Error from server: code=1000 [Unavailable exception] message="x"').outerNames).toContain(
      'UnavailableException',
    );
    expect(readCodes('Error from server: code=9999 [Unknown] message="x"').outerNames).toEqual([]);
    expect(
      readCodes('Code: 60. DB::Exception: Table default.events does not exist. (UNKNOWN_TABLE) (version 24.3.1.1)')
        .outerNames,
    ).toContain('UNKNOWN_TABLE');
  });

  it("reads DynamoDB's cancellation reasons, skipping the actions that did not fail", () => {
    expect(
      messageCodes(
        'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]',
      ).outerNames,
    ).toEqual(['ConditionalCheckFailed']);
    expect(
      messageCodes('Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError]')
        .outerNames,
    ).toEqual(['ValidationError']);
  });

  it("reads go-ldap's and ldap3's result codes beside JNDI's", () => {
    expect(readCodes('LDAP Result Code 50 "Insufficient Access Rights": x').ldapNumbers).toEqual([50]);
    expect(readCodes('LDAPEntryAlreadyExistsResult - 68 - entryAlreadyExists - None').ldapNumbers).toEqual([68]);
  });

  it('reads an IMAP response code after NO/BAD and a POP3 code after -ERR, not a bracket in prose', () => {
    expect(readCodes('a1 NO [UNAVAILABLE] Temporary authentication failure').mailCodes).toEqual(['UNAVAILABLE']);
    expect(readCodes('-ERR [IN-USE] Unable to lock maildrop').mailCodes).toEqual(['IN-USE']);
    expect(readCodes('NO [TRYCREATE] Mailbox does not exist').mailCodes).toEqual(['TRYCREATE']);
    expect(readCodes('KNOWN [UNAVAILABLE] x').mailCodes).toEqual([]);
  });
});
