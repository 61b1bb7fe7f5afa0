import { describe, expect, test } from 'vitest';
import { isPostgresUnavailable } from './postgres-unavailable.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isPostgresUnavailable', () => {
  test.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    [
      'an admin shutdown (pg_ctl stop)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['a server still starting', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300')],
    [
      'a statement cancelled at statement_timeout',
      withCode('57014', 'canceling statement due to statement timeout'),
    ],
    ['a connection exception (class 08)', withCode('08006')],
    ['a connection closed under pg', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ["pg's client-side query timeout", new Error('Query read timeout')],
    ['every address refusing', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
    ['a wrapped cause', new Error('Store x: INSERT failed', { cause: withCode('ECONNREFUSED') })],
  ])('should call %s unavailable', (_, error) => {
    expect(isPostgresUnavailable(error)).toBe(true);
  });

  test.each([
    ['a unique violation', withCode('23505', 'duplicate key value')],
    ['a syntax error', withCode('42601', 'syntax error at or near')],
    ['an undefined column', withCode('42703')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error at all', 'boom'],
  ])('should not call %s unavailable', (_, error) => {
    expect(isPostgresUnavailable(error)).toBe(false);
  });
});
