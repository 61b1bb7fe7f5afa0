import { describe, expect, test } from 'vitest';
import {
  evolveMetaRubric,
  type Generation,
  type GenerationStore,
  heldOutCheck,
  type LabelledPair,
} from '../src/judges/meta-rubric-evolution/index.js';
import { loadDomainPools, loadMetaRubric, parseMetaRubric } from '../src/judges/openrs/index.js';
import { DEFAULT_DOMAINS_DIR, DEFAULT_META_RUBRIC } from '../src/judges/openrs/openrs-files.js';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import { openrsIntentRule, openrsWhenA } from './judge-fixtures.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();
const model = (name: string) =>
  createOpenAICompatibleModel({ name, model: name, endpoints: [{ baseURL: server.url }], maxRetries: 0 });

const seedMetaRubric = loadMetaRubric(DEFAULT_META_RUBRIC);
const domains = loadDomainPools(DEFAULT_DOMAINS_DIR);
const pairs: LabelledPair[] = [1, 2, 3].map((k) => ({
  id: `p${k}`,
  prompt: `A line about rain, number ${k}.`,
  chosen: `GOOD${k}`,
  rejected: `BAD${k}`,
}));
const idealAnswer = seedMetaRubric.sections.find((s) => s.heading === 'Ideal answer')?.body as string;

/** The seed judge: right on p1 and p2, wrong on p3 in both orders (it prefers BAD3). */
const seedJudge: ScriptRule[] = [
  openrsWhenA('GOOD1', 'A'),
  openrsWhenA('BAD1', 'B'),
  openrsWhenA('GOOD2', 'A'),
  openrsWhenA('BAD2', 'B'),
  openrsWhenA('GOOD3', 'B'),
  openrsWhenA('BAD3', 'A'),
];
/** Under a meta-rubric holding FIXED-RULE the judge gets p3 right too. */
const fixedJudge = [openrsWhenA('GOOD3', 'A', 'FIXED-RULE'), openrsWhenA('BAD3', 'B', 'FIXED-RULE')];
/** Under ALWAYS-A the judge prefers position A whatever it holds: swap-inconsistent everywhere. */
const positionBiasedJudge = ['GOOD\\d', 'BAD\\d'].map((t) => openrsWhenA(t, 'A', 'ALWAYS-A'));
const mutator = (section: string, times?: number): ScriptRule => ({
  match: { model: 'mutator' },
  reply: { content: JSON.stringify({ rationale: 'the section misses a rule', section }) },
  ...(times !== undefined && { times }),
});

const memoryStore = (): GenerationStore & { saved: Generation[] } => {
  const saved: Generation[] = [];
  return {
    saved,
    load: async () => structuredClone(saved),
    save: async (g) => {
      saved.push(structuredClone(g));
    },
  };
};

const evolve = (store: GenerationStore, generations = 1, extra: { population?: number } = {}) =>
  evolveMetaRubric({
    seedMetaRubric,
    pairs,
    judge: { model: model('judge'), domains, reasks: 0 },
    mutator: { model: model('mutator'), reasks: 0 },
    generations,
    population: extra.population ?? 2,
    tiePenalty: 0.5,
    sections: ['Ideal answer'],
    misjudged: 4,
    seed: 7,
    concurrency: 2,
    store,
  });
const mutatorRequests = () => server.requests.filter((r) => r.body.model === 'mutator');
const userText = (r: (typeof server.requests)[number]) =>
  (r.body.messages ?? []).map((m) => String(m.content)).join('\n');

describe('meta-rubric evolution', () => {
  test('should keep a mutation that fixes a misjudged pair, and show the mutator the pair but never its label', async () => {
    server.script(
      openrsIntentRule,
      ...fixedJudge,
      ...seedJudge,
      mutator(`${idealAnswer}\n\nFIXED-RULE: prefer images.`),
    );
    const store = memoryStore();
    const result = await evolve(store);
    const seed = result.variants.get('g0-seed');
    expect(seed?.fitness).toMatchObject({ right: 2, wrong: 1, ties: 0, failed: 0 });
    expect(seed?.fitness?.fitness).toBeCloseTo(2 / 3, 12);
    expect(result.best.id).toBe('g1-0');
    expect(result.best).toMatchObject({ parent: 'g0-seed', section: 'Ideal answer', kept: true });
    expect(result.best.fitness?.fitness).toBe(1);
    expect(result.best.markdown).toMatch(
      /## Ideal answer\n\n[\s\S]*FIXED-RULE: prefer images\.\n\n## Hard flaws/,
    );
    expect(store.saved.map((g) => g.population)).toEqual([['g0-seed'], ['g1-0', 'g0-seed']]);
    // The intent analysis sees only the query: asked once per pair, shared by both variants.
    const intents = server.requests.filter((r) => userText(r).includes('You analyse what a user wants'));
    expect(intents).toHaveLength(3);
    expect(server.requests).toHaveLength(3 + 2 * 3 + 1 + 2 * 3);

    const [asked] = mutatorRequests();
    const text = userText(asked as never);
    expect(text).toMatch(/Section to rewrite: "## Ideal answer"/);
    expect(text).toContain(idealAnswer.split('\n')[0]);
    // Only the misjudged pair, both responses, and nothing that says which one was preferred.
    expect(text).toMatch(/GOOD3/);
    expect(text).toMatch(/BAD3/);
    expect(text).not.toMatch(/GOOD1|GOOD2/);
    expect(text).not.toMatch(/chosen|rejected|preferred response|label/i);
  });

  test('should not keep a mutation that breaks swap consistency', async () => {
    server.script(
      openrsIntentRule,
      ...positionBiasedJudge,
      ...seedJudge,
      mutator(`${idealAnswer}\n\nALWAYS-A.`),
    );
    const result = await evolve(memoryStore());
    const child = result.variants.get('g1-0');
    expect(child?.fitness).toMatchObject({ right: 0, wrong: 3, fitness: 0 });
    expect(child?.outcomes.map((o) => o.verdict)).toEqual(['inconsistent', 'inconsistent', 'inconsistent']);
    expect(child?.kept).toBe(false);
    expect(result.best.id).toBe('g0-seed');
    expect(result.generations.at(-1)?.population).toEqual(['g0-seed']);
  });

  test('should resume from the stored generations without judging them again', async () => {
    server.script(
      openrsIntentRule,
      ...positionBiasedJudge,
      ...seedJudge,
      mutator(`${idealAnswer}\n\nALWAYS-A.`, 1),
      mutator(`${idealAnswer}\n\nALWAYS-A, again.`),
    );
    const store = memoryStore();
    const straight = await evolve(store, 1);
    const before = server.requests.length;
    const again = await evolve(store, 1);
    expect(server.requests.length).toBe(before);
    expect(again.best.id).toBe(straight.best.id);

    const resumed = await evolve(store, 2);
    expect(store.saved.map((g) => g.generation)).toEqual([0, 1, 2]);
    // Generation 2: one mutation (of the seed, the only member), its three pairs judged in both orders.
    const mutations = mutatorRequests().length;
    expect(mutations).toBe(2);
    expect(resumed.variants.get('g2-0')?.markdown).toMatch(/ALWAYS-A, again\./);
  });

  test('should record a pair the judge never answers readably as failed, neither right nor wrong', async () => {
    server.script(openrsIntentRule, openrsWhenA('GOOD1', 'A'), openrsWhenA('BAD1', 'B'), {
      match: { contains: 'Response A:' },
      reply: { content: 'I cannot say.' },
    });
    const result = await evolve(memoryStore(), 0);
    const seed = result.variants.get('g0-seed');
    expect(seed?.fitness).toMatchObject({ right: 1, wrong: 0, ties: 0, failed: 2, accuracy: 1 });
    expect(seed?.outcomes.filter((o) => o.outcome === 'failed').map((o) => o.reason)).toEqual([
      expect.stringMatching(/comparison/),
      expect.stringMatching(/comparison/),
    ]);
  });

  test('should refuse an empty section list before any call', async () => {
    await expect(
      evolveMetaRubric({
        seedMetaRubric,
        pairs,
        judge: { model: model('judge'), domains },
        mutator: { model: model('mutator') },
        generations: 1,
        population: 1,
        tiePenalty: 0,
        sections: [],
        misjudged: 1,
        seed: 0,
        concurrency: 1,
        store: memoryStore(),
      }),
    ).rejects.toThrow(/at least one section/);
    expect(server.requests).toHaveLength(0);
  });

  test('should record a mutation that breaks the meta-rubric as a failure, with no judge call', async () => {
    server.script(openrsIntentRule, ...seedJudge, mutator('text\n## A new top section'));
    const before = memoryStore();
    const result = await evolve(before);
    const child = result.variants.get('g1-0');
    expect(child?.failure).toMatch(/g1-0\.md: section "Ideal answer" line 2/);
    expect(child?.kept).toBe(false);
    // The seed's 3 pairs × 3 calls, one mutation call, nothing else.
    expect(server.requests.length).toBe(10);
  });

  test('should report the held-out fitness of the best and the seed with bootstrap intervals', async () => {
    server.script(openrsIntentRule, ...fixedJudge, ...seedJudge);
    const best = parseMetaRubric(
      seedMetaRubric.text.replace(idealAnswer, `${idealAnswer}\n\nFIXED-RULE.`),
      'best.md',
    );
    const report = await heldOutCheck({
      seed: seedMetaRubric,
      best,
      pairs,
      judge: { model: model('judge'), domains, reasks: 0 },
      tiePenalty: 0.5,
      concurrency: 3,
    });
    expect(report.seed.fitness).toBeCloseTo(2 / 3, 12);
    expect(report.best.fitness).toBe(1);
    expect(report.best.interval).toEqual([1, 1]);
    expect(report.seed.interval?.[0]).toBeLessThanOrEqual(2 / 3);
    expect(report.seed.interval?.[1]).toBe(1);
    expect(report.difference).toMatchObject({ pairs: 3 });
    expect(report.difference?.mean).toBeCloseTo(1 / 3, 12);
  });
});
