import { expect } from 'vitest';

/**
 * What every HTML report must be: no script, no request (no http(s) or protocol-relative src or
 * href, no CSS url()), and a Content-Security-Policy that forbids any.
 */
export function expectSelfContained(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
  expect(html).not.toMatch(/url\(/i);
  expect(html).toContain(`Content-Security-Policy" content="default-src 'none'`);
}
