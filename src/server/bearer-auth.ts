import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Accepts `Authorization: Bearer <token>` for any configured token. Tokens are compared as
 * sha256 digests with `timingSafeEqual`, and every token is checked, so the answer time says
 * nothing about how much of a guess was right or which token it was close to.
 */
export function bearerAuth(tokens: readonly string[]): MiddlewareHandler {
  const digests = tokens.map(digest);
  return async function bearerAuth(c, next) {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    const offered = digest(match?.[1]?.trim() ?? '');
    let ok = false;
    for (const known of digests) ok = timingSafeEqual(known, offered) || ok;
    if (!match || !ok) {
      throw new ApiError(
        401,
        'unauthorized',
        match ? 'the bearer token is not one of the configured tokens' : 'send Authorization: Bearer <token>',
        { headers: { 'WWW-Authenticate': 'Bearer realm="rewardkit"' } },
      );
    }
    await next();
  };
}
