import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { failedResult } from '../src/core/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { okResult } from '../src/store/test-utils/store-conformance.js';
import { createViewApp } from '../src/view/index.js';
import { seriousViolations } from './axe-check.js';
import { repoRoot, runCli, tempDir } from './cli-harness.js';
import { ragAnswerRow } from './judge-fixtures.js';
import {
  type ScriptedOpenAIServer,
  type ScriptRule,
  startScriptedOpenAIServer,
} from './scripted-openai-server.js';
import { chromiumPath, startView } from './view-harness.js';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it), or REWARDKIT_CHROMIUM. */
if (!chromiumPath) {
  process.stderr.write(
    '[browser tests skipped] no chromium at /usr/bin/chromium (apt-get install chromium)\n',
  );
}

const PWNED = '<script>window.__pwned = 1</script>';

/**
 * The claims (MARCH) and medical_rubric judges' replies, told apart by their system prompts: the
 * Proposer's first claim and the grader's evidence hold a <script>.
 */
const specialistRules: ScriptRule[] = [
  {
    match: { role: 'system', contains: 'You split an answer' },
    reply: {
      content: JSON.stringify({
        claims: [
          { question: `How many staff did Acme have? ${PWNED}`, expected: '1,200' },
          { question: 'How many offices did Acme have?', expected: '40' },
        ],
      }),
    },
  },
  {
    match: { role: 'system', contains: 'You answer questions using only the documents' },
    reply: {
      content: JSON.stringify({
        items: [
          { id: 'C1', evidence: 'Acme had 1200 staff', answer: '1200' },
          { id: 'C2', evidence: '', answer: 'cannot answer' },
        ],
      }),
    },
  },
  {
    match: { role: 'system', contains: 'You grade one answer to a health or medical question' },
    reply: {
      content: JSON.stringify({
        grades: [
          {
            id: 'E1',
            evidence: `Acme had 1,200 staff ${PWNED}`,
            reason: 'the exact count',
            grade: 'fully_met',
          },
          { id: 'I1', evidence: '', reason: 'no number for the offices', grade: 'not_met' },
          { id: 'P1', evidence: '', reason: 'nothing invented', grade: 'no_pitfall' },
        ],
      }),
    },
  },
];

describe.skipIf(!chromiumPath)('rewardkit view in a real browser', () => {
  let judge: ScriptedOpenAIServer;
  let browser: Browser;
  let view: { url: string; child: ChildProcess };
  const shots = mkdtempSync(join(tmpdir(), 'rk-view-shots-'));
  const runIds: string[] = [];
  let store = '';

  beforeAll(async () => {
    // The web app is built by `npm run build`; the tests' global setup compiles only the CLI.
    if (!existsSync(join(repoRoot, 'dist/view-app/index.html'))) {
      execFileSync(
        process.execPath,
        ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts'],
        {
          cwd: repoRoot,
        },
      );
    }
    const dir = tempDir();
    store = join(dir, 'store.sqlite');
    const score = async (args: string[], code = 0) => {
      const run = await runCli(['score', '--store', store, '--no-resume', ...args], {
        env: { JUDGE_KEY: 'k' },
      });
      expect(run.code, run.stderr).toBe(code);
      runIds.push(/run-\d{8}-\d{6}-[0-9a-f]{4}/.exec(run.stdout + run.stderr)?.[0] as string);
    };
    await score([
      '--input',
      'examples/mixed.jsonl',
      '--spec',
      'default',
      '--output',
      join(dir, 'mixed.jsonl'),
    ]);
    judge = await startScriptedOpenAIServer();
    judge.script(...specialistRules);
    judge.script({
      reply: {
        content: JSON.stringify({ principles: ['vivid'], critique: `fine ${PWNED}`, score_1: 8, score_2: 3 }),
      },
    });
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  judge:\n    model: scripted-judge\n    base_url: ${judge.url}\n    api_key_env: JUDGE_KEY\n    max_retries: 0\n`,
    );
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: genrm\n    params:\n      model: judge\n      reasks: 0\n',
    );
    const rows = [
      { id: 'good', prompt: 'Write a line about rain.', response: 'Rain taps the glass.', reference: 'REF' },
      {
        id: 'pwn',
        prompt: 'Write a line about rain.',
        response: `Rain ${PWNED} falls.`,
        reference: `REF ${PWNED}`,
      },
    ];
    writeFileSync(join(dir, 'in.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await score([
      ...[
        '--spec',
        join(dir, 'spec.yaml'),
        '--models',
        join(dir, 'models.yaml'),
        '--input',
        join(dir, 'in.jsonl'),
      ],
      ...['--output', join(dir, 'judged.jsonl')],
    ]);
    await score([
      '--input',
      join(dir, 'in.jsonl'),
      '--spec',
      'default',
      '--output',
      join(dir, 'plain.jsonl'),
    ]);
    // The claims and medical_rubric judges on one RAG answer; a second has no documents, so its
    // claims detail is an invalid check the claims view does not draw.
    writeFileSync(
      join(dir, 'judgments.yaml'),
      'sources:\n  - kind: claims\n    params: {model: judge, reasks: 0}\n  - kind: medical_rubric\n    params: {model: judge, reasks: 0}\n',
    );
    const judged = [ragAnswerRow('rag', ['Acme had 1200 staff in 2023.']), ragAnswerRow('no-docs', [])];
    writeFileSync(join(dir, 'rag.jsonl'), `${judged.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await score(
      [
        ...['--spec', join(dir, 'judgments.yaml'), '--models', join(dir, 'models.yaml')],
        ...['--input', join(dir, 'rag.jsonl'), '--output', join(dir, 'rag-out.jsonl')],
      ],
      3,
    );
    view = await startView(store);
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    process.stderr.write(`rewardkit view screenshots: ${shots}\n`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    view?.child.kill();
    await judge?.close();
  });

  const open = async (hash = '') => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${view.url}${hash}`);
    return { page, failures };
  };
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  test('should go from the runs to a run, filter its samples, open one and its judge trace', async () => {
    const { page, failures } = await open();
    await page.locator('#runs tbody tr').nth(3).waitFor();
    expect(await page.locator('#runs tbody tr').count()).toBe(4);
    await shot(page, 'runs');
    await page.locator(`a[href="#/runs/${runIds[0]}"]`).click();
    await expect.poll(() => page.locator('#samples-count').textContent()).toBe('21 samples');
    // The statistics, histograms and series are asked for once the first samples page has answered.
    await page.locator('figure.histogram').first().waitFor();
    // Reward over results: one point per result (21 results, fewer than the 60 buckets).
    await page.locator('#reward-series [data-series="mean reward"] path').waitFor();
    expect(await page.locator('#reward-series [data-series="mean reward"] circle').count()).toBe(21);
    // No model was called: no cost over time.
    expect(await page.locator('#tokens-series').count()).toBe(0);
    await shot(page, 'run');
    await page.fill('input[name="q"]', 'gsm8k-1');
    await page.click('form.filters button[type="submit"]');
    await expect.poll(() => page.locator('#samples-count').textContent()).toBe('1 samples');
    await page.locator('[data-sample="gsm8k-1"] a').click();
    await page.locator('#sample-id').waitFor();
    expect(await page.locator('#sample-id').textContent()).toBe('gsm8k-1');
    // Rendered, the GSM8K answer line is a heading, its answer marked; raw, it is the line as written.
    await page.locator('#response [data-rendered] h4').waitFor();
    expect(await page.locator('#response h4 mark').textContent()).toBe('72');
    await page.click('[data-mode-toggle="response"]');
    expect(await page.locator('#response').textContent()).toContain('#### 72');
    expect(await page.locator('#response mark').textContent()).toBe('72');
    await shot(page, 'sample');

    await page.goto(`${view.url}#/runs/${runIds[1]}/samples/good`);
    await page.locator('[data-trace]').waitFor();
    expect(await page.locator('[data-trace]').textContent()).toMatch(/judge calls \d+ · tokens/);
    await shot(page, 'trace');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should break a run down by data source, each linked to its rows in the table', async () => {
    const { page, failures } = await open(`#/runs/${runIds[0]}`);
    await page.locator('#data-sources tbody tr').first().waitFor();
    const cells = async (row: number) =>
      (await page.locator('#data-sources tbody tr').nth(row).locator('td').allTextContents()).slice(0, 2);
    // examples/mixed.jsonl: 21 rows over 11 data sources, most results first.
    expect(await page.locator('#data-sources tbody tr').count()).toBe(11);
    expect([await cells(0), await cells(1), await cells(2)]).toEqual([
      ['math', '6'],
      ['ifeval', '4'],
      ['gsm8k', '3'],
    ]);
    await page.locator('#data-sources a', { hasText: 'gsm8k' }).click();
    await expect.poll(() => page.locator('#samples-count').textContent()).toBe('3 samples');
    expect(failures).toEqual([]);
    await page.close();
  });

  test("should list a judged run's criteria with pass rates and links to the samples that missed them", async () => {
    const { page, failures } = await open(`#/runs/${runIds[3]}`);
    await page.locator('#criteria tbody tr').first().waitFor();
    const rows = await page
      .locator('#criteria tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    // The scripted judge: one of the RAG answer's two claims supported; the medical grades alike for both rows.
    expect(rows).toEqual([
      ['claims', 'claim supported', '2', '1', '50%', 'rag'],
      ['medical_rubric', 'States the staff count', '2', '2', '100%', ''],
      ['medical_rubric', 'Names the offices', '2', '0', '0%', 'rag, no-docs'],
      ['medical_rubric', 'Invents a figure', '2', '2', '100%', ''],
    ]);
    await page.locator('[data-criterion="Names the offices"] a', { hasText: 'no-docs' }).click();
    await expect.poll(() => page.locator('#sample-id').textContent()).toBe('no-docs');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should plot the tokens and calls of a judge run over time', async () => {
    const { page, failures } = await open(`#/runs/${runIds[1]}`);
    // A fast run saves its results within a moment: the lines may be vertical, with no width.
    await page.locator('#calls-series [data-series="calls"] path').waitFor({ state: 'attached' });
    expect(await page.locator('#tokens-series [data-series="prompt tokens"] path').count()).toBe(1);
    expect(await page.locator('#tokens-series [data-series="completion tokens"] path').count()).toBe(1);
    // From 0 to the run's 4 calls (GenRM asks both orders of each of 2 samples). Its 2 results were
    // saved together; the axis is the time its calls were answered, not one save time for all.
    const titles = await page.locator('#calls-series circle title').allTextContents();
    expect(titles[0]).toBe('calls: 0 at 0');
    expect(titles.at(-1)).toMatch(/^calls: 4 at \d+(\.\d+)?$/);
    expect(await page.locator('#calls-series svg').textContent()).toContain(
      'time since the first judge call was answered (s)',
    );
    expect(await page.locator('#reward-series').count()).toBe(1);
    await shot(page, 'run-judge');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should show a GenRM judgment as which response held each position, its score and the winner', async () => {
    const { page, failures } = await open(`#/runs/${runIds[1]}/samples/good`);
    const view = page.locator('[data-judgment="genrm"]');
    await view.waitFor();
    // The judge scored position 1 8 and position 2 3 in both orders: the backward order showed the
    // reference first, so the orders disagree and the verdict is a tie.
    const cells = async (order: string) => view.locator(`tr[data-order="${order}"] td`).allTextContents();
    expect(await cells('forward')).toEqual([
      'forward',
      'the response',
      '8',
      'the reference',
      '3',
      'the response',
    ]);
    expect(await cells('backward')).toEqual([
      'backward',
      'the reference',
      '8',
      'the response',
      '3',
      'the reference',
    ]);
    expect(await view.locator('[data-grade]').first().textContent()).toBe('tie');
    await shot(page, 'genrm-view');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should load a large prompt into the prompt block, leaving the response as it was', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    // The stored prompt stands in for one over the detail's limit: the page is told it was left out.
    await page.route(/\/api\/runs\/[^/]+\/samples\/good$/, async (route) => {
      const detail = await (await route.fetch()).json();
      await route.fulfill({
        json: { ...detail, text: { ...detail.text, prompt: null, prompt_truncated: true } },
      });
    });
    await page.route(/\/api\/runs\/[^/]+\/samples\/good\/text\?field=prompt$/, (route) =>
      route.fulfill({ contentType: 'text/plain', body: 'THE-WHOLE-PROMPT' }),
    );
    await page.goto(`${view.url}#/runs/${runIds[1]}/samples/good`);
    await page.getByRole('button', { name: 'Load the prompt (large)' }).click();
    await page.locator('#prompt').waitFor();
    expect(await page.locator('#prompt').textContent()).toBe('THE-WHOLE-PROMPT');
    expect(await page.locator('#response').textContent()).toBe('Rain taps the glass.');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should show a response and its reference with a <script> as text, never run it', async () => {
    const { page, failures } = await open(`#/runs/${runIds[1]}/samples/pwn`);
    await page.locator('#response').waitFor();
    expect(await page.locator('#response').textContent()).toContain(PWNED);
    expect(await page.locator('#reference').textContent()).toBe(`REF ${PWNED}`);
    expect(await page.locator('#reference script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#response script').count()).toBe(0);
    await shot(page, 'script-as-text');
    expect(failures).toEqual([]);
    await page.close();
  });

  test("should show a judged sample's calls: both orders side by side, the prompt sent and the raw output, markup as text", async () => {
    const { page, failures } = await open(`#/runs/${runIds[1]}/samples/pwn`);
    const section = page.locator('[data-judge-calls]');
    await section.waitFor();
    expect(await section.locator('h4').textContent()).toBe('Judge calls (2)');
    const forward = section.locator('[data-order-column="forward"] details.judge-call');
    const backward = section.locator('[data-order-column="backward"] details.judge-call');
    expect([await forward.count(), await backward.count()]).toEqual([1, 1]);
    const [left, right] = [
      await section.locator('[data-order-column="forward"]').boundingBox(),
      await section.locator('[data-order-column="backward"]').boundingBox(),
    ];
    expect(right?.x).toBeGreaterThan((left?.x ?? 0) + (left?.width ?? 0) - 1);
    expect(right?.y).toBe(left?.y);
    expect(await forward.locator('summary').textContent()).toMatch(
      /#1 genrm_scores · forward · vote 0 · tokens 10 in \/ 5 out · [\d.]+ ms · retries 0/,
    );
    await forward.locator('summary').click();
    const prompt = forward.locator('[data-message-role="user"] pre');
    await prompt.waitFor({ state: 'visible' });
    // The prompt the judge got holds the judged response, <script> and all, as text.
    expect(await prompt.textContent()).toContain('Write a line about rain.');
    expect(await prompt.textContent()).toContain(`Rain ${PWNED} falls.`);
    const raw = forward.locator('pre.call-raw');
    expect(await raw.isVisible()).toBe(true);
    expect(await raw.textContent()).toContain(`"critique":"fine ${PWNED}"`);
    // Rendered on request: the <script> in the judge's output is still text.
    await forward.locator('[data-mode-toggle="output"]').click();
    const rendered = forward.locator('[data-rendered]');
    expect(await rendered.textContent()).toContain(`fine ${PWNED}`);
    expect(await rendered.locator('script').count()).toBe(0);
    await forward.locator('[data-mode-toggle="output"]').click();
    expect(await raw.textContent()).toContain(`"critique":"fine ${PWNED}"`);
    expect(await section.locator('script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await shot(page, 'judge-calls');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should show a claim check as a table of claims, each with its verdict and checker votes', async () => {
    const { page, failures } = await open(`#/runs/${runIds[3]}/samples/rag`);
    const view = page.locator('[data-source="claims"] [data-judgment="claims"]');
    await view.waitFor();
    expect(await view.locator('dl.figures').textContent()).toMatch(/verdictfail.*faults1.*supported1/);
    const supported = view.locator('[data-claim="C1"]');
    expect(await supported.locator('[data-grade]').getAttribute('data-grade')).toBe('supported');
    // The question holds a <script>: shown as its characters, never run.
    expect(await supported.locator('td').nth(1).textContent()).toBe(`How many staff did Acme have? ${PWNED}`);
    expect(await supported.locator('[data-vote]').allTextContents()).toEqual(['✓', '✓', '✓']);
    expect(await supported.locator('[data-vote]').first().getAttribute('title')).toMatch(
      /^run 0: matches · answer: 1200 · by numeric/,
    );
    const fault = view.locator('[data-claim="C2"]');
    expect(await fault.locator('[data-grade]').getAttribute('data-grade')).toBe('fault');
    expect(await fault.locator('[data-vote="cannot_answer"]').count()).toBe(3);
    // The stored detail stays one click away, folded.
    const raw = page.locator('[data-source="claims"] details.raw-detail');
    expect(await raw.getAttribute('open')).toBeNull();
    expect(await raw.locator('dl.tree').first().isVisible()).toBe(false);
    await raw.locator('summary').click();
    expect(await raw.locator('dl.tree').first().isVisible()).toBe(true);
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await shot(page, 'claims');
    expect(failures).toEqual([]);
    await page.close();
  });

  test("should show a rubric grading: each section's credit and each criterion's grade and evidence", async () => {
    const { page, failures } = await open(`#/runs/${runIds[3]}/samples/rag`);
    const view = page.locator('[data-source="medical_rubric"] [data-judgment="medical_rubric"]');
    await view.waitFor();
    expect(await view.locator('[data-sections] tbody tr').allInnerTexts()).toEqual([
      'Essential\t2\t2',
      'Important\t0\t1',
      'Highlight\t0\t0',
      'Pitfall\t0\t2',
    ]);
    const met = view.locator('[data-criterion="E1"]');
    expect(await met.locator('[data-grade]').getAttribute('data-grade')).toBe('fully_met');
    expect(await met.locator('[data-grade]').textContent()).toBe('met');
    // The judge's evidence quote holds a <script>: text, never run.
    expect(await met.locator('td.quote').textContent()).toBe(`Acme had 1,200 staff ${PWNED}`);
    expect(await view.locator('[data-criterion="I1"] [data-grade]').getAttribute('data-grade')).toBe(
      'not_met',
    );
    expect(await view.locator('[data-criterion="P1"] [data-grade]').textContent()).toBe('no pitfall');
    expect(await page.locator('main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await shot(page, 'medical-rubric');
    expect(failures).toEqual([]);
    await page.close();
  });

  test.each([
    ['a judge run', () => `#/runs/${runIds[1]}`, '#reward-series'],
    ['a judged sample with its calls open', () => `#/runs/${runIds[1]}/samples/pwn`, '[data-judge-calls]'],
    ['claim and rubric judgments', () => `#/runs/${runIds[3]}/samples/rag`, '[data-judgment="claims"]'],
  ])('should have no serious accessibility violations on %s', async (_, hash, ready) => {
    const page = await browser.newPage({ bypassCSP: true });
    await page.goto(`${view.url}${hash()}`);
    await page.locator(ready).first().waitFor();
    for (const summary of await page.locator('details > summary').all()) await summary.click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  test('should show a judgment its view does not recognise as the detail tree', async () => {
    const { page, failures } = await open(`#/runs/${runIds[3]}/samples/no-docs`);
    const card = page.locator('[data-source="claims"]');
    await card.locator('dl.tree').first().waitFor();
    // An invalid check (no documents) has no claims to draw: its detail shows as stored, unfolded.
    expect(await card.locator('[data-judgment]').count()).toBe(0);
    expect(await card.locator('details.raw-detail').count()).toBe(0);
    expect(await card.locator('dl.tree').first().textContent()).toContain('documents');
    // The rubric grading of the same sample still has its view.
    expect(await page.locator('[data-judgment="medical_rubric"]').count()).toBe(1);
    expect(failures).toEqual([]);
    await page.close();
  });

  test("should draw a live run's table before its slow statistics, poll them one at a time and follow the run without a reload", async () => {
    // A run still being written, behind an inspector whose statistics take STATS_MS to answer
    // (as on a store of a million results) while its pages answer at once.
    const STATS_MS = 1000;
    const path = join(tempDir(), 'live.sqlite');
    const writer = openSqliteStore(path);
    await writer.createRun({ id: 'run-live', spec_name: 'serve:math', spec: {} });
    await writer.saveResults(
      'run-live',
      Array.from({ length: 30 }, (_, i) => okResult(`s${i}`, (i % 4) / 4)),
    );
    const reader = openSqliteStore(path, { readonly: true });
    const app = createViewApp({ store: reader, assetsDir: join(repoRoot, 'dist/view-app') });
    const requests: { kind: string; at: number; answeredAt?: number }[] = [];
    const inFlight = new Map<string, number>();
    let mostInFlight = 0;
    const kindOf = (pathname: string) =>
      pathname.includes('/samples')
        ? 'samples'
        : (/^\/api\/runs\/run-live\/(histograms|reward-series|cost-series|data-sources|by-source)$/.exec(
            pathname,
          )?.[1] ?? 'detail');
    const server = serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: async (request: Request) => {
        const { pathname } = new URL(request.url);
        if (!pathname.startsWith('/api/runs/run-live')) return app.fetch(request);
        const entry: (typeof requests)[number] = { kind: kindOf(pathname), at: Date.now() };
        requests.push(entry);
        inFlight.set(entry.kind, (inFlight.get(entry.kind) ?? 0) + 1);
        if (entry.kind !== 'samples') mostInFlight = Math.max(mostInFlight, inFlight.get(entry.kind) ?? 0);
        if (entry.kind !== 'samples') await new Promise((resolve) => setTimeout(resolve, STATS_MS));
        const response = await app.fetch(request);
        inFlight.set(entry.kind, (inFlight.get(entry.kind) ?? 1) - 1);
        entry.answeredAt = Date.now();
        return response;
      },
    }) as Server;
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    try {
      await page.goto(`${url}#/runs/run-live`);
      await page.locator('[data-sample="s0"]').waitFor();
      // The table is drawn while the statistics are still on their way.
      expect(await page.locator('#run-statistics').textContent()).toBe('Loading the statistics…');
      expect(await page.locator('#samples-count').textContent()).toBe('30 samples');
      await expect
        .poll(() => page.locator('#run-statistics').textContent(), { timeout: 10_000 })
        .toContain('30 results');
      await expect
        .poll(() => page.locator('#live-status').textContent(), { timeout: 10_000 })
        .toMatch(/^live · updated \d+ s ago$/);
      await shot(page, 'run-live');
      // More results: the numbers and the table follow, no reload.
      await writer.saveResults(
        'run-live',
        [5, 6, 7, 8, 9].map((i) => okResult(`more${i}`, 1)),
      );
      await expect
        .poll(() => page.locator('#samples-count').textContent(), { timeout: 15_000 })
        .toBe('35 samples');
      await expect
        .poll(() => page.locator('#run-statistics').textContent(), { timeout: 15_000 })
        .toContain('35 results');
      // The run finishes: the page says so and stops asking.
      await writer.finishRun('run-live', { rows: 35 });
      await expect
        .poll(() => page.locator('#run-statistics').textContent(), { timeout: 15_000 })
        .toContain('finished');
      expect(await page.locator('#live-status').count()).toBe(0);
      const statistics = () => requests.filter((r) => r.kind !== 'samples').length;
      const asked = statistics();
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(statistics()).toBe(asked);
      // One request of a kind at a time, each the next max(3 s, 4 × its last duration) after the last answer.
      expect(mostInFlight).toBe(1);
      const details = requests.filter((r) => r.kind === 'detail');
      expect(details.length).toBeGreaterThanOrEqual(2);
      for (const [i, r] of details.slice(1).entries()) {
        const last = details[i] as (typeof details)[number];
        expect(r.at - (last.answeredAt ?? 0)).toBeGreaterThanOrEqual(4 * STATS_MS - 50);
      }
      // The first samples page answered before any statistics were asked for.
      const firstStatistics = requests.find((r) => r.kind !== 'samples');
      expect(requests[0]?.kind).toBe('samples');
      expect(firstStatistics?.at).toBeGreaterThanOrEqual(requests[0]?.answeredAt ?? Number.POSITIVE_INFINITY);
      expect(failures).toEqual([]);
    } finally {
      await page.close();
      server.close();
      await reader.close();
      await writer.close();
    }
  }, 90_000);

  test('should compare two runs of the same samples', async () => {
    const { page } = await open();
    await page.locator('#runs tbody tr').nth(2).waitFor();
    await page.check(`input[aria-label="pick ${runIds[1]}"]`);
    await page.check(`input[aria-label="pick ${runIds[2]}"]`);
    await page.click('#compare-link');
    await page.locator('#compare-counts').waitFor();
    expect(await page.locator('#compare-counts').textContent()).toMatch(/^2 samples in both/);
    // A row opens the sample side by side in both runs, not run A's page.
    const link = page.locator('#changed tbody tr a').first();
    expect(await link.getAttribute('href')).toMatch(
      new RegExp(`^#/compare/${runIds[1]}/${runIds[2]}/samples/(good|pwn)$`),
    );
    expect(await page.locator('#changed tbody tr td.excerpt').first().textContent()).toMatch(/^Rain /);
    await shot(page, 'compare');
    // Both samples lost reward in B: "improved" lists none and says so, "regressed" both.
    await page.click('button[data-filter="improved"]');
    await page.locator('#compare-none').waitFor();
    expect(await page.locator('#compare-none').textContent()).toBe('No changed sample matches this filter.');
    await page.click('button[data-filter="regressed"]');
    await page.locator('#changed').waitFor();
    expect(await page.locator('#changed tbody tr').count()).toBe(2);
    // The filter is in the URL: a reload keeps it, and Back returns to the one before.
    expect(page.url()).toMatch(/\?filter=regressed$/);
    await page.reload();
    await page.locator('#changed tbody tr').nth(1).waitFor();
    expect(await page.locator('button[data-filter="regressed"]').getAttribute('aria-pressed')).toBe('true');
    await page.goBack();
    await page.locator('#compare-none').waitFor();
    expect(await page.locator('button[data-filter="improved"]').getAttribute('aria-pressed')).toBe('true');
    await page.goForward();
    await page.locator('#changed tbody tr').nth(1).waitFor();
    await link.click();
    await page.locator('#compare-numbers').waitFor();
    expect(await page.locator('.evidence-column[data-side="a"] article.evidence').count()).toBeGreaterThan(0);
    expect(await page.locator('.evidence-column[data-side="b"] article.evidence').count()).toBeGreaterThan(0);
    await page.close();
  });

  test('should set one sample of two runs side by side with a word diff of the responses, markup as text', async () => {
    const dir = tempDir();
    const rows = [
      { id: 'good', prompt: 'Write a line about rain.', response: 'Rain taps the glass.', reference: 'REF' },
      { id: 'pwn', prompt: 'Write a line about rain.', response: `Rain ${PWNED} pours.`, reference: 'REF' },
    ];
    writeFileSync(join(dir, 'in2.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const run = await runCli([
      ...['score', '--store', store, '--no-resume', '--spec', 'default'],
      ...['--input', join(dir, 'in2.jsonl'), '--output', join(dir, 'out2.jsonl')],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const other = /run-\d{8}-\d{6}-[0-9a-f]{4}/.exec(run.stdout + run.stderr)?.[0] as string;
    const { page, failures } = await open(`#/compare/${runIds[2]}/${other}/samples/pwn`);
    await page.locator('.word-diff').waitFor();
    expect(await page.locator('.diff-a del').allTextContents()).toEqual(['falls.']);
    expect(await page.locator('.diff-b ins').allTextContents()).toEqual(['pours.']);
    expect(await page.locator('.diff-a').textContent()).toBe(`Rain ${PWNED} falls.`);
    expect(await page.locator('.diff-b').textContent()).toBe(`Rain ${PWNED} pours.`);
    expect(await page.locator('.word-diff script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#compare-numbers tbody tr').first().locator('td').first().textContent()).toBe(
      'reward',
    );
    // Same text, one diff: the unchanged sample says so.
    await page.goto(`${view.url}#/compare/${runIds[2]}/${other}/samples/good`);
    await page.locator('.word-diff', { hasText: 'The two responses are the same.' }).waitFor();
    await shot(page, 'compare-sample');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should say when two runs share no sample id, and when a run does not exist', async () => {
    const { page, failures } = await open(`#/compare/${runIds[0]}/${runIds[1]}`);
    await page.locator('#compare-empty').waitFor();
    expect(await page.locator('#compare-empty').textContent()).toContain('share no sample ids');
    expect(await page.locator('#changed').count()).toBe(0);
    await page.goto(`${view.url}#/compare/${runIds[0]}/run-nope`);
    await page.locator('[role="alert"]', { hasText: 'run-nope' }).waitFor();
    expect(await page.locator('[role="alert"]').textContent()).toMatch(
      /^Cannot compare .* with run-nope: No run run-nope in this store$/,
    );
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should list a stored redteam run by its kind and open its report, not a samples table', async () => {
    const dir = tempDir();
    const run = await runCli([
      'redteam',
      ...['--spec', 'default', '--input', 'examples/mixed.jsonl', '--output', join(dir, 'redteam.json')],
      ...['--exploits', 'answer-enumeration,hedging', '--store', store],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const id = /; run (run-\S+)/.exec(run.stderr)?.[1] as string;
    const { page, failures } = await open();
    const row = page.locator(`#runs tbody tr[data-run="${id}"]`);
    await row.waitFor();
    expect(await row.locator('td').nth(4).textContent()).toBe('redteam');
    expect(await row.locator('td').nth(4).getAttribute('title')).toBe('0 of 2 exploits lift the reward');
    await row.locator(`a`, { hasText: id }).click();
    await page.locator('h1', { hasText: 'Redteam: default' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`/api/runs/${id}/report$`));
    expect(await page.locator('svg circle').count()).toBe(2);
    await shot(page, 'redteam-report');
    // Its run page, reached by its hash, says what it is and links the same report.
    await page.goto(`${view.url}#/runs/${id}`);
    await page.locator('#analysis-report').waitFor();
    expect(await page.locator('#analysis-report').textContent()).toBe(
      'redteam: 0 of 2 exploits lift the reward · open its report',
    );
    expect(await page.locator('#analysis-report a').getAttribute('href')).toBe(`api/runs/${id}/report`);
    expect(failures).toEqual([]);
    await page.close();
  });

  describe('a run table of 60 samples and one failure', () => {
    const REASON = `in.jsonl:61: ${'the response field is missing '.repeat(8)}`;
    let url = '';
    let server: Server;
    let reader: Awaited<ReturnType<typeof openSqliteStore>>;

    beforeAll(async () => {
      const path = join(tempDir(), 'table.sqlite');
      const writer = openSqliteStore(path);
      await writer.createRun({ id: 'run-t', spec_name: 'math', spec: {} });
      const ok = Array.from({ length: 60 }, (_, i) =>
        okResult(`s${String(i).padStart(2, '0')}`, (i % 10) / 10),
      );
      await writer.saveResults('run-t', [...ok, failedResult('bad', [REASON, 'second reason'])], {
        samples: [...ok.map((r) => ({ response: `${r.id}: ${'a long answer '.repeat(30)}` })), undefined],
      });
      await writer.finishRun('run-t', { rows: 61 });
      await writer.close();
      reader = openSqliteStore(path, { readonly: true });
      const app = createViewApp({ store: reader, assetsDir: join(repoRoot, 'dist/view-app') });
      server = serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch }) as Server;
      await new Promise((resolve) => server.once('listening', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });

    afterAll(async () => {
      server?.close();
      await reader?.close();
    });

    const firstRow = (page: Page) =>
      page.locator('#samples [data-sample]').first().getAttribute('data-sample');
    const count = (page: Page) => page.locator('#samples-count').textContent();

    test('should keep filters, sort and place in the URL: reload, Back and a copied link show the same rows', async () => {
      const page = await browser.newPage();
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      await page.goto(`${url}#/runs/run-t`);
      await expect.poll(() => count(page)).toBe('61 samples');
      await page.selectOption('select[name="sort"]', 'reward');
      await page.selectOption('select[name="order"]', 'desc');
      await page.click('form.filters button[type="submit"]');
      await expect
        .poll(() => page.evaluate(() => window.location.hash))
        .toBe('#/runs/run-t?sort=reward&order=desc');
      await expect.poll(() => firstRow(page)).toBe('s09');
      await page.fill('input[name="q"]', 's1');
      await page.click('form.filters button[type="submit"]');
      await expect.poll(() => count(page)).toBe('10 samples');
      await page.reload();
      await expect.poll(() => count(page)).toBe('10 samples');
      expect(await page.inputValue('input[name="q"]')).toBe('s1');
      expect(await page.inputValue('select[name="sort"]')).toBe('reward');
      // Back: the sorted table without the search, its form showing so.
      await page.goBack();
      await expect.poll(() => count(page)).toBe('61 samples');
      expect(await page.inputValue('input[name="q"]')).toBe('');
      expect(await firstRow(page)).toBe('s09');
      // Scrolled down, into a sample and Back: the same rows.
      await page.locator('#samples').evaluate((box) => box.scrollTo(0, 20 * 30));
      await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/&row=20$/);
      const shown = await firstRow(page);
      await page.locator(`[data-sample="${shown}"] a`).click();
      await page.locator('#sample-id').waitFor();
      await page.goBack();
      await expect.poll(() => firstRow(page)).toBe(shown);
      expect(await page.locator('#samples').evaluate((box) => box.scrollTop)).toBe(20 * 30);
      // The link, opened afresh, shows the same rows.
      const link = page.url();
      const copy = await browser.newPage();
      await copy.goto(link);
      await expect.poll(() => firstRow(copy)).toBe(shown);
      expect(await count(copy)).toBe('61 samples');
      await copy.close();
      // A bad bound in a link is said once, with no table of rows that never come.
      await page.goto(`${url}#/runs/run-t?min_reward=abc`);
      await page.locator('#filter-problem').waitFor();
      expect(await page.locator('#filter-problem').textContent()).toBe(
        'reward ≥ must be a number, such as 0.5 (got "abc")',
      );
      expect(await page.locator('#samples').count()).toBe(0);
      expect(failures).toEqual([]);
      await page.close();
    });

    test('should step through the samples in the table order with j and k, and focus the search with /', async () => {
      const page = await browser.newPage();
      await page.goto(`${url}#/runs/run-t?sort=reward&order=desc`);
      await expect.poll(() => firstRow(page)).toBe('s09');
      const order = await page
        .locator('#samples [data-sample]')
        .evaluateAll((rows) => rows.slice(0, 3).map((r) => r.getAttribute('data-sample')));
      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('sample-search');
      await page.locator(`[data-sample="${order[0]}"] a`).click();
      await page.locator('#next-sample').waitFor();
      expect(await page.locator('#previous-sample').count()).toBe(0);
      await page.keyboard.press('j');
      await expect.poll(() => page.locator('#sample-id').textContent()).toBe(order[1]);
      await page.locator('#previous-sample').waitFor();
      await page.keyboard.press('j');
      await expect.poll(() => page.locator('#sample-id').textContent()).toBe(order[2]);
      await page.keyboard.press('k');
      await expect.poll(() => page.locator('#sample-id').textContent()).toBe(order[1]);
      await page.close();
    });

    test('should list each run with when it was created, narrow the list by a search, and say a run is missing', async () => {
      const page = await browser.newPage();
      await page.goto(url);
      const row = page.locator('#runs tbody tr[data-run="run-t"]');
      await row.waitFor();
      expect(await row.locator('td').nth(2).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      await page.keyboard.press('/');
      await page.keyboard.type('MATH');
      expect(await page.locator('#runs tbody tr').count()).toBe(1);
      await page.fill('#runs-search', 'no such run');
      await page.locator('#runs-none-match').waitFor();
      expect(await page.locator('#runs').count()).toBe(0);
      // A run id that is not in the store says so, and nothing about reading the store.
      await page.goto(`${url}#/runs/run-none`);
      await page.locator('#run-missing').waitFor();
      expect(await page.locator('#run-missing').textContent()).toBe('No run run-none in this store.');
      await page.goto(`${url}#/runs/run-none/samples/x`);
      await page.locator('[role="alert"]').waitFor();
      expect(await page.locator('[role="alert"]').textContent()).toBe('No run run-none in this store.');
      await page.close();
    });

    test("should keep every column readable at 800 px and show a failed row's first reason", async () => {
      const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
      await page.goto(`${url}#/runs/run-t?status=failed`);
      await expect.poll(() => count(page)).toBe('1 samples');
      const widths = await page
        .locator('.table-head > span')
        .evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().width));
      expect(widths).toHaveLength(8);
      // The set minimums (styles.css): 3.5rem for the narrowest, 10rem for the response, at 14 px.
      for (const width of widths) expect(width).toBeGreaterThanOrEqual(3 * 14);
      expect(widths.at(-1)).toBeGreaterThanOrEqual(10 * 14);
      const reason = page.locator('[data-sample="bad"] .reason');
      expect(await reason.getAttribute('title')).toBe(REASON);
      expect(await reason.textContent()).toBe(REASON);
      await shot(page, 'run-800px');
      await page.close();
    });
  });
});
