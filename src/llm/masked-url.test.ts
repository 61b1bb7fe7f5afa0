import { describe, expect, it } from 'vitest';
import { maskedUrl } from './masked-url.js';

describe('maskedUrl', () => {
  it.each([
    ['http://user:s3cret@10.0.0.1:8000/v1', 'http://user:***@10.0.0.1:8000/v1'],
    ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1'],
    ['https://user@host/v1', 'https://user@host/v1'],
    ['not a url', 'not a url'],
  ])('should mask the password of %s', (url, masked) => {
    expect(maskedUrl(url)).toBe(masked);
  });
});
