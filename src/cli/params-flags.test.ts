import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { addParamFlags, paramFlags, paramsFromFlags } from './params-flags.js';

const schema = z.strictObject({
  model: z.string().min(1).describe('the judge model'),
  reasks: z.number().int().nonnegative().default(2).describe('re-asks'),
  both_orders: z.boolean().default(true).describe('judge both orders'),
  verbose: z.boolean().optional().describe('say more'),
  against: z.enum(['reference', 'group']).default('reference').describe('what to compare with'),
  pass_at: z.number().min(0).max(1).default(0.5).describe('pass threshold'),
  truncation: z
    .union([z.boolean(), z.strictObject({ essential_ratio: z.number().min(0).max(1).optional() })])
    .default(true)
    .describe('zero extra credit when essentials fail'),
  weights: z
    .strictObject({
      precision: z.number().nonnegative().optional(),
      recall: z.number().nonnegative().optional(),
    })
    .refine((w) => (w.precision ?? 1) + (w.recall ?? 1) > 0, 'at least one weight must be > 0')
    .optional()
    .describe('role weights'),
  tags: z.array(z.string()).optional().describe('tags'),
});

function parse(argv: string[]) {
  const flags = paramFlags(schema, new Set(['--input']));
  const command = addParamFlags(new Command('x').exitOverride(), flags);
  command.parse(argv, { from: 'user' });
  return schema.parse(paramsFromFlags(schema, flags, command));
}

describe('params as flags', () => {
  test('should derive one flag per param, kebab-cased and flattened, with help from the schema', () => {
    const flags = paramFlags(schema).map((f) => f.option.flags);
    expect(flags).toEqual([
      '--model <value>',
      '--reasks <n>',
      '--no-both-orders',
      '--verbose',
      '--against <value>',
      '--pass-at <n>',
      '--no-truncation',
      '--truncation-essential-ratio <n>',
      '--weights-precision <n>',
      '--weights-recall <n>',
      '--tags <value>',
    ]);
    expect(paramFlags(schema)[1]?.option.description).toBe('re-asks (default: 2)');
  });

  test.each<[string[], Record<string, unknown>]>([
    [
      ['--model', 'j'],
      { model: 'j', reasks: 2, both_orders: true, against: 'reference', pass_at: 0.5, truncation: true },
    ],
    [
      ['--model', 'j', '--no-both-orders', '--reasks', '0', '--against', 'group', '--verbose'],
      { model: 'j', reasks: 0, both_orders: false, against: 'group', verbose: true },
    ],
    [['--model', 'j', '--no-truncation'], { truncation: false }],
    [['--model', 'j', '--truncation-essential-ratio', '0.3'], { truncation: { essential_ratio: 0.3 } }],
    [['--model', 'j', '--weights-recall', '0'], { weights: { recall: 0 } }],
    [['--model', 'j', '--tags', 'a', '--tags', 'b'], { tags: ['a', 'b'] }],
  ])('should read %j into the params object', (argv, expected) => {
    expect(parse(argv)).toMatchObject(expected);
  });

  test.each<[string[], RegExp]>([
    [[], /^--model: is required$/],
    [['--model', 'j', '--pass-at', '2'], /^--pass-at: .*<=1/],
    [
      ['--model', 'j', '--weights-precision', '0', '--weights-recall', '0'],
      /^--weights-precision, --weights-recall: at least one weight/,
    ],
    [
      ['--model', 'j', '--no-truncation', '--truncation-essential-ratio', '0.3'],
      /--truncation-essential-ratio cannot be combined with --no-truncation/,
    ],
  ])('should name the flag when %j fails the schema', (argv, message) => {
    expect(() => parse(argv)).toThrow(message);
  });

  test.each([
    [['--reasks', 'x'], /--reasks expects an integer, got "x"/],
    [['--reasks', '1.5'], /--reasks expects an integer/],
    [['--against', 'self'], /Allowed choices are reference, group/],
  ])('should refuse %j while parsing', (argv, message) => {
    expect(() => parse(['--model', 'j', ...argv])).toThrow(message);
  });

  test('should refuse a param that would shadow one of the command flags', () => {
    const shadow = z.strictObject({ input: z.string() });
    expect(() => paramFlags(shadow, new Set(['--input']))).toThrow(
      /param "input" would shadow the command's --input/,
    );
  });
});
