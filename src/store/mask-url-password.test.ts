import { describe, expect, test } from 'vitest';
import { maskUrlPassword } from './mask-url-password.js';

describe('maskUrlPassword', () => {
  test.each([
    ['postgres://rk:s3cret@db:5432/rewards', 'postgres://rk:***@db:5432/rewards'],
    ['postgresql://rk:p%40ss@10.0.0.1/rk?sslmode=require', 'postgresql://rk:***@10.0.0.1/rk?sslmode=require'],
    ['postgres://rk@db/rewards', 'postgres://rk@db/rewards'],
    ['postgres://db/rewards?user=rk&password=hunter2', 'postgres://db/rewards?user=rk&password=***'],
    ['postgres://rk:secret@db:port/x', 'postgres://***@db:port/x'],
  ])('should mask %s', (url, masked) => {
    expect(maskUrlPassword(url)).toBe(masked);
  });
});
