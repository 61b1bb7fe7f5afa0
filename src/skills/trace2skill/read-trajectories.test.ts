import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTrajectories } from './read-trajectories.js';

describe('readTrajectories', () => {
  test('should read valid rows and report every malformed one by file, line and field', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rk-traj-')), 't.jsonl');
    const rows = [
      JSON.stringify({ id: 'a', task: 'add', transcript: 'x', outcome: { pass: true } }),
      JSON.stringify({ id: 'b', task: 'add', outcome: { pass: false } }),
      '{"id": "c", ',
      JSON.stringify({ id: 'd', task: 'add', steps: [{ action: 'calc' }], outcome: { pass: 'no' } }),
      JSON.stringify({ id: 'a', task: 'again', transcript: 'y', outcome: { pass: false } }),
      JSON.stringify({
        id: 'e',
        task: 'sum',
        steps: [{ thought: 't', observation: 'o' }],
        outcome: { pass: false, score: 0.2 },
        extra: 1,
      }),
    ];
    writeFileSync(file, `${rows.join('\n')}\n`);
    const got = await readTrajectories(file);
    expect(got.trajectories.map((t) => t.id)).toEqual(['a', 'e']);
    expect(got.rejected.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    expect(got.rejected[0]?.errors[0]).toBe(
      `${file}:2: field "steps": a trajectory needs "steps" or "transcript"`,
    );
    expect(got.rejected[1]?.errors[0]).toMatch(new RegExp(`^${file}:3: invalid JSON`));
    expect(got.rejected[2]?.errors[0]).toMatch(new RegExp(`^${file}:4: field "outcome.pass": `));
    expect(got.rejected[3]?.errors[0]).toBe(`${file}:5: field "id": duplicate id "a" (first seen on line 1)`);
  });
});
