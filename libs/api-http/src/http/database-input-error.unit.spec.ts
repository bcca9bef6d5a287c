import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from './api-errors.js';
import { clientValueErrorsAs400, isClientValueError } from './database-input-error.js';

const pgError = (code: string, message = 'refused') => Object.assign(new Error(message), { code });

describe('database refusals of request values', () => {
  it('takes SQLSTATE classes 22 (data exception) and 54 (program limit) as the request’s values', () => {
    expect(isClientValueError(pgError('22021'))).toBe(true); // invalid byte sequence (U+0000)
    expect(isClientValueError(pgError('22008'))).toBe(true); // datetime field overflow
    expect(isClientValueError(pgError('54000'))).toBe(true); // program limit exceeded
  });

  it('leaves the deployment’s failures and bugs alone', () => {
    for (const code of ['08006', '57P01', '42501', '40001', '53300', 'XX000', 'ECONNREFUSED', '2202']) {
      expect(isClientValueError(pgError(code)), code).toBe(false);
    }
    expect(isClientValueError(new TypeError('x is undefined'))).toBe(false);
    expect(isClientValueError(null)).toBe(false);
  });

  it('turns a refused value into a 400 invalid_value and passes everything else through', async () => {
    const refused = clientValueErrorsAs400(() =>
      Promise.reject(pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00')),
    );
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'invalid_value' });
    const down = pgError('57P01', 'terminating connection');
    await expect(clientValueErrorsAs400(() => Promise.reject(down))).rejects.toBe(down);
    await expect(clientValueErrorsAs400(async () => 7)).resolves.toBe(7);
  });
});
