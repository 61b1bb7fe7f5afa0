import { describe, expect, test } from 'vitest';
import { pathRoleOf } from './check-path-flags.js';

describe('pathRoleOf', () => {
  test.each([
    ['input', 'path', { use: 'read', kind: 'any', orName: false }],
    ['models', 'file', { use: 'read', kind: 'file', orName: false }],
    ['spec', 'file|preset', { use: 'read', kind: 'file', orName: true }],
    ['options', 'json|file', { use: 'read', kind: 'file', orName: true }],
    ['index', 'dir', { use: 'read', kind: 'dir', orName: false }],
    ['rubrics.jsonl', 'rubrics.jsonl', { use: 'read', kind: 'file', orName: false }],
    ['output', 'file', { use: 'write', kind: 'file', orName: false }],
    ['out', 'dir', { use: 'write', kind: 'dir', orName: false }],
    ['report', 'file', { use: 'write', kind: 'file', orName: false }],
    ['store', 'path|url', { use: 'store', kind: 'file', orName: false }],
  ] as const)('should read --%s <%s> as %j', (name, placeholder, role) => {
    expect(pathRoleOf(name, placeholder)).toEqual(role);
  });

  test.each([
    ['model', 'name'],
    ['concurrency', 'n'],
    ['protect', 'path'],
    ['format', 'preset'],
  ])('should take --%s <%s> for no path', (name, placeholder) => {
    expect(pathRoleOf(name, placeholder)).toBeUndefined();
  });
});
