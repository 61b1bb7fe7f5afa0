/** Node socket errors that mean the server could not be reached or went away mid-statement. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is shutting down, starting, out of connections or cancelled a
 * statement at its timeout (`57014`, `statement_timeout`): the same statement may succeed later.
 * Class 08 (connection exception) is matched by prefix.
 */
const RETRY_LATER = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** pg's own messages, which carry no code: a connection closed under it, or its timeouts. */
const PG_CLIENT_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /not queryable/i,
  /Client was closed/i,
];

/**
 * Whether a pg or socket error says the PostgreSQL server is unreachable, restarting, hung or
 * overloaded — the store is unavailable and the same work may succeed later — rather than that
 * the statement itself is wrong (a constraint, a type, a bug), which retrying cannot fix.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNREACHABLE.has(code) || RETRY_LATER.has(code) || code.startsWith('08')) return true;
    }
    // A failed connect through several addresses (localhost: ::1 and 127.0.0.1) is an AggregateError.
    if (e instanceof AggregateError && e.errors.some((inner) => isPostgresUnavailable(inner))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_CLIENT_MESSAGES.some((pattern) => pattern.test(message)))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
