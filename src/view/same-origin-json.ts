import { ApiError } from '../server/index.js';

interface WriteRequest {
  header(name: string): string | undefined;
}

/**
 * Refuses a write another site could make from a visitor's browser: a body that is not JSON (a
 * plain form can send no other type without a preflight the inspector never answers), or an
 * Origin, or a Fetch Metadata site, that is not this page's own.
 */
export function requireSameOriginJson(req: WriteRequest): void {
  const type = req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      'send the label as JSON (Content-Type: application/json)',
    );
  }
  const site = req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new ApiError(403, 'cross_origin', `a write from a ${site} page is refused`);
  }
  const origin = req.header('origin');
  if (origin !== undefined) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new ApiError(403, 'cross_origin', `the Origin ${origin} is not a URL`);
    }
    if (host !== req.header('host')) {
      throw new ApiError(
        403,
        'cross_origin',
        `a write from ${origin} is refused; open the inspector's own page`,
      );
    }
  }
}
