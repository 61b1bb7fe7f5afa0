import { describe, expect, test } from 'vitest';
import type { Sample } from '../core/index.js';
import { exploits } from '../redteam/index.js';
import { createEvaluator, parseSpec } from '../spec/index.js';
import { AuditReportSchema, auditReport } from './audit-report.js';
import { DEFAULT_PROBES, exploitProbe } from './exploit-probe.js';
import { runAudit, type Scoring } from './run-audit.js';
import { sampleAttributes } from './sample-attributes.js';

const scorer = (yaml: string) => {
  const evaluator = createEvaluator(parseSpec(yaml, 'spec.yaml'));
  return async (sample: Sample): Promise<Scoring> => {
    const result = await evaluator.evaluate(sample);
    return result.status === 'ok' && result.reward !== null
      ? { reward: result.reward }
      : { reasons: result.errors };
  };
};

const sampleOptions = {
  idOf: (s: Sample) => s.id,
  sourceOf: (s: Sample) => s.data_source,
  attributesOf: (s: Sample) => sampleAttributes(s.response),
  resamples: 400,
  seed: 1,
};

/** Responses of 5 to 64 words, each word "w": nothing but length varies. */
const lengthSamples = (n: number, source?: (i: number) => string): Sample[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `l${i}`,
    response: Array.from({ length: 5 + ((i * 37) % 60) }, () => 'w').join(' '),
    metadata: {},
    ...(source && { data_source: source(i) }),
  }));

/**
 * Math answers whose correctness is crossed with their length: every padding level carries as many
 * right answers as wrong ones, so a correctness reward has nothing to say about length.
 */
const mathSamples: Sample[] = Array.from({ length: 80 }, (_, i) => {
  const level = i % 10;
  const right = Math.floor(i / 10) % 2 === 0;
  const a = 3 + i;
  const b = 7;
  return {
    id: `m${i}`,
    prompt: `What is ${a} times ${b}?`,
    response: `${'Let me think about this carefully. '.repeat(level * 3)}${a} times ${b} is \\boxed{${right ? a * b : a * b + 1}}.`,
    reference: String(a * b),
    metadata: {},
  };
});

const attribute = (result: Awaited<ReturnType<typeof runAudit>>, name: string) => {
  const found = result.attributes.find((a) => a.name === name);
  if (!found) throw new Error(`no attribute ${name}`);
  return found;
};

describe('runAudit', () => {
  test('a reward that is a length check flags length: its intervals lie above 0', async () => {
    const result = await runAudit(lengthSamples(60), {
      ...sampleOptions,
      score: scorer('sources:\n  - kind: length\n    params: {unit: words, min: 30}\n'),
    });
    expect(result.scored).toBe(60);
    const tokens = attribute(result, 'tokens');
    expect(tokens.pearson.ci?.[0]).toBeGreaterThan(0);
    expect(tokens.spearman.ci?.[0]).toBeGreaterThan(0);
    expect(tokens.mi_method).toBe('plug-in-miller-madow');
    expect(tokens.mi_ci?.[0]).toBeGreaterThan(0);
  });

  test('the math preset on length-varied right and wrong answers does not flag length: its intervals include 0', async () => {
    const result = await runAudit(mathSamples, {
      ...sampleOptions,
      score: scorer('sources:\n  - kind: math\n'),
    });
    expect(result.scored).toBe(80);
    for (const name of ['tokens', 'chars']) {
      const a = attribute(result, name);
      for (const e of [a.pearson, a.spearman]) {
        expect(e.value, name).not.toBeNull();
        expect(e.ci?.[0], name).toBeLessThanOrEqual(0);
        expect(e.ci?.[1], name).toBeGreaterThanOrEqual(0);
      }
      expect(a.mi_ci?.[0], name).toBeLessThanOrEqual(0);
    }
  });

  test('too few samples give null with the reason, never 0', async () => {
    const result = await runAudit(lengthSamples(6), {
      ...sampleOptions,
      score: scorer('sources:\n  - kind: length\n    params: {unit: words, min: 30}\n'),
    });
    const tokens = attribute(result, 'tokens');
    expect(tokens.pearson).toEqual({
      value: null,
      ci: null,
      n: 6,
      reason: '6 samples, below the minimum of 10',
    });
    expect(tokens.mi).toBeNull();
    expect(tokens.mi_reason).toMatch(/below the minimum/);
  });

  test('a constant reward gives null with the reason', async () => {
    const result = await runAudit(lengthSamples(20), {
      ...sampleOptions,
      score: async () => ({ reward: 1 }),
    });
    const tokens = attribute(result, 'tokens');
    expect(tokens.spearman.value).toBeNull();
    expect(tokens.spearman.reason).toMatch(/zero variance/);
    expect(tokens.mi_reason).toMatch(/zero variance/);
  });

  test('splits by data source: a bias confined to one source shows there and not in the other', async () => {
    const samples = lengthSamples(80, (i) => (i % 2 === 0 ? 'padded' : 'plain'));
    const result = await runAudit(samples, {
      ...sampleOptions,
      // Only the "padded" source pays for length; "plain" pays by id parity, whatever the length.
      score: async (s) => ({
        reward:
          s.data_source === 'padded'
            ? Number((sampleAttributes(s.response).tokens as number) >= 30)
            : Number(Number(s.id.slice(1)) % 4 === 1),
      }),
    });
    const tokens = attribute(result, 'tokens');
    expect(Object.keys(tokens.by_source)).toEqual(['padded', 'plain']);
    expect(tokens.by_source.padded?.n).toBe(40);
    expect(tokens.by_source.padded?.spearman.ci?.[0]).toBeGreaterThan(0);
    const plain = tokens.by_source.plain?.spearman.ci;
    expect(plain?.[0]).toBeLessThanOrEqual(0);
    expect(plain?.[1]).toBeGreaterThanOrEqual(0);
  });

  test('a continuous reward is measured by the CLUB bound, and says so', async () => {
    const result = await runAudit(lengthSamples(40), {
      ...sampleOptions,
      score: async (s) => ({ reward: Math.sqrt(sampleAttributes(s.response).chars as number) }),
    });
    const chars = attribute(result, 'chars');
    expect(chars.mi_method).toBe('club-upper-bound');
    expect(chars.mi).toBeGreaterThan(0);
  });

  test('failed scorings are recorded with their reasons, counted, and left out of the statistics', async () => {
    const samples = lengthSamples(30);
    const result = await runAudit(samples, {
      ...sampleOptions,
      score: async (s) =>
        Number(s.id.slice(1)) < 5 ? { reasons: ['judge said nothing'] } : { reward: s.response.length % 3 },
    });
    expect(result).toMatchObject({ samples: 30, scored: 25 });
    expect(result.failed).toEqual(
      Array.from({ length: 5 }, (_, i) => ({ id: `l${i}`, reasons: ['judge said nothing'] })),
    );
    expect(attribute(result, 'tokens').n).toBe(25);
    expect(result.rows.map((r) => r.id)).not.toContain('l0');
  });

  test('a thrown scoring error (a dead backend) stops the run', async () => {
    await expect(
      runAudit(lengthSamples(12), {
        ...sampleOptions,
        score: async () => {
          throw new Error('connection refused');
        },
      }),
    ).rejects.toThrow('connection refused');
  });

  test('the probes are the redteam registry’s exploits, and report how far they move the reward', async () => {
    const probes = DEFAULT_PROBES.map((name) =>
      exploitProbe(exploits[name] as NonNullable<(typeof exploits)[string]>),
    );
    expect(probes.map((p) => p.name)).toEqual(['length-padding', 'format-inflation', 'flattering-opener']);
    const samples = lengthSamples(30);
    const seen: string[] = [];
    const score = scorer('sources:\n  - kind: length\n    params: {unit: words, min: 30}\n');
    const result = await runAudit(samples, {
      ...sampleOptions,
      probes,
      score: async (s) => {
        seen.push(s.response);
        return score(s);
      },
    });
    // The padded response is exactly the registry's own rewrite, not a copy of it.
    const padded = exploits['length-padding']?.apply(samples[0] as Sample, { next: () => 0 } as never)[0];
    expect(seen).toContain(padded);
    const padding = result.probes[0];
    const shorter = result.rows.filter((r) => r.reward === 0).length;
    // Padding adds 340 words: every short answer now passes, every long one already did.
    expect(padding).toMatchObject({
      name: 'length-padding',
      applied: 30,
      failed: 0,
      moved_share: shorter / 30,
    });
    expect(padding?.mean_shift).toBeCloseTo(shorter / 30, 12);
    expect(padding?.ci?.[0]).toBeGreaterThan(0);
  });

  test('a failed probe scoring is counted in the probe, never read as a shift of 0', async () => {
    const result = await runAudit(lengthSamples(12), {
      ...sampleOptions,
      probes: [exploitProbe(exploits['flattering-opener'] as NonNullable<(typeof exploits)[string]>)],
      score: async (s) => (s.response.startsWith('What a great') ? { reasons: ['refused'] } : { reward: 1 }),
    });
    expect(result.probes[0]).toMatchObject({
      applied: 12,
      failed: 12,
      moved_share: null,
      mean_shift: null,
      ci: null,
    });
  });

  test('the report has the documented shape and is the same for the same seed', async () => {
    const run = () =>
      runAudit(
        lengthSamples(30, (i) => (i < 15 ? 'a' : 'b')),
        {
          ...sampleOptions,
          probes: [exploitProbe(exploits['length-padding'] as NonNullable<(typeof exploits)[string]>)],
          score: scorer('sources:\n  - kind: length\n    params: {unit: words, min: 30}\n'),
        },
      );
    const report = auditReport('length', await run());
    expect(AuditReportSchema.safeParse(JSON.parse(JSON.stringify(report))).success).toBe(true);
    expect(Object.keys(report)).toEqual(['spec', 'samples', 'scored', 'failed', 'attributes', 'probes']);
    expect(auditReport('length', await run())).toEqual(report);
  });
});

describe('an attribute carried by a handful of samples', () => {
  test('gives null with the reason instead of an interval resting on them alone', async () => {
    // One response in 21 has a list: the bootstrap would skip the resamples without it as constant.
    const samples = lengthSamples(21).map((s, i) => (i === 3 ? { ...s, response: '- a\n- b\n- c' } : s));
    const result = await runAudit(samples, {
      ...sampleOptions,
      score: async (s) => ({ reward: Number(s.id.slice(1)) % 2 === 0 || s.id === 'l3' ? 1 : 0 }),
    });
    const lists = attribute(result, 'list_items');
    expect(lists.spearman.value).toBeNull();
    expect(lists.spearman.reason).toMatch(/only 1 sample\(s\) differ from the most common value/);
    expect(lists.mi_reason).toBe(lists.spearman.reason);
    expect(attribute(result, 'tokens').spearman.value).not.toBeNull();
  });
});
