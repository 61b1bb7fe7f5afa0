import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedOpenAIServer } from './scripted-openai-server.js';

const rubric = {
  essential: [
    {
      title: 'Says it is usually fine at the labelled dose',
      levels: { not_met: 'No', partially_met: 'Yes without dose', fully_met: 'Yes at the dose' },
    },
  ],
  important: [],
  highlight: [],
  pitfall: [
    {
      title: 'Suggests combining two NSAIDs',
      levels: { no_pitfall: 'No', minor_error: 'Vague', major_error: 'Yes' },
    },
  ],
};

const grading = (grade: string) =>
  JSON.stringify({
    grades: [
      { id: 'E1', evidence: '', reason: '', grade },
      { id: 'P1', evidence: '', reason: '', grade: 'no_pitfall' },
    ],
  });

/**
 * A `judge medical_rubric` run of `rows` rows (ids `q0`, `q1`, …, each with its rubric inline)
 * against the scripted server, which grades even answers fully met and odd ones partly, so the
 * rewards differ row to row: the command's arguments, writing to `out` with `--store store`.
 */
export function medicalJudgeRun(
  server: ScriptedOpenAIServer,
  options: { readonly dir: string; readonly rows: number; readonly out: string; readonly store: string },
): string[] {
  const { dir, rows, out, store } = options;
  server.script(
    { match: { contains: /Answer \d*[02468]:/ }, reply: { content: grading('fully_met') } },
    { reply: { content: grading('partially_met') } },
  );
  const input = join(dir, 'medical.jsonl');
  const models = join(dir, 'models.yaml');
  writeFileSync(
    input,
    `${Array.from({ length: rows }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `Can I take ibuprofen? (${i})`, response: `Answer ${i}: usually yes.`, rubric })).join('\n')}\n`,
  );
  writeFileSync(
    models,
    `models:\n  judge:\n    model: med-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return [
    'judge',
    'medical_rubric',
    '--models',
    models,
    '--model',
    'judge',
    '--map',
    'metadata.rubric=rubric',
    '-i',
    input,
    '-o',
    out,
    '--store',
    store,
    '-c',
    '2',
  ];
}
