import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot, runCli, tempDir } from './cli-harness.js';
import { type ScriptedOpenAIServer, startScriptedOpenAIServer } from './scripted-openai-server.js';
import { chromiumPath, startView } from './view-harness.js';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it), or REWARDKIT_CHROMIUM. */

const PWNED = '<script>window.__pwned = 1</script>';
const scores = (one: number, two: number) =>
  JSON.stringify({ principles: ['is correct'], critique: `compared ${PWNED}`, score_1: one, score_2: two });

describe.skipIf(!chromiumPath)('a bench run in rewardkit view, in a real browser', () => {
  let judge: ScriptedOpenAIServer;
  let browser: Browser;
  let view: { url: string; child: ChildProcess };
  let benchRun = '';
  let judgeRun = '';
  const shots = mkdtempSync(join(tmpdir(), 'rk-view-bench-shots-'));
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

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
    const store = join(dir, 'store.sqlite');
    judge = await startScriptedOpenAIServer();
    // The good response wins wherever it is shown.
    judge.script(
      { match: { contains: /<response-1-\w+>\nGOOD/ }, reply: { content: scores(9, 2) } },
      { reply: { content: scores(2, 9) } },
    );
    const models = join(dir, 'models.yaml');
    writeFileSync(
      models,
      `models:\n  judge:\n    model: scripted-judge\n    base_url: ${judge.url}\n    max_retries: 0\n`,
    );
    const rows = [
      { id: 'b-1', subset: 'poems', prompt: 'Rain?', chosen: 'GOOD soft rain', rejected: 'BAD wet' },
      { id: 'b-2', subset: 'poems', prompt: 'Snow?', chosen: 'GOOD white hush', rejected: `BAD ${PWNED}` },
      { id: 'b-3', subset: 'prose', prompt: 'Wind?', chosen: 'GOOD combs the grass', rejected: 'BAD windy' },
    ];
    const input = join(dir, 'pairs.jsonl');
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const bench = await runCli([
      ...['bench', '--dataset', 'pairwise', '--input', input, '--models', models, '--model', 'judge'],
      ...['--output', join(dir, 'bench.jsonl'), '--reasks', '0', '--store', store],
    ]);
    expect(bench.code, bench.stderr).toBe(0);
    benchRun = /^ {2}run {5}(run-\S+)/m.exec(bench.stdout)?.[1] as string;
    const pairwise = await runCli([
      ...['judge', 'pairwise', '--models', models, '-m', 'judge', '-i', input],
      ...['-o', join(dir, 'verdicts.jsonl'), '--store', store],
    ]);
    expect(pairwise.code, pairwise.stderr).toBe(0);
    const listed = await runCli(['runs', 'list', '--store', store]);
    judgeRun = /^(run-\S+) .*kind=judge/m.exec(listed.stdout)?.[1] as string;
    view = await startView(store);
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    process.stderr.write(`rewardkit view bench screenshots: ${shots}\n`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    view?.child.kill();
    await judge?.close();
  });

  test('should list the bench run with its kind and open it: the benchmark tables, its samples and a judgment', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(view.url);
    await page.locator('#runs tbody tr').nth(1).waitFor();
    const benchRow = page.locator('#runs tbody tr', { hasText: benchRun });
    expect(await benchRow.locator('td', { hasText: /^bench$/ }).count()).toBe(1);
    await benchRow.locator(`a[href="#/runs/${benchRun}"]`).click();

    await page.locator('#bench-summary').waitFor();
    expect(await page.locator('#bench-summary h2').textContent()).toBe('Benchmark: Pairwise JSONL');
    const groups = await page
      .locator('#bench-groups tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    expect(groups.map((row) => row.slice(0, 3))).toEqual([
      ['poems', '2', '1'],
      ['prose', '1', '1'],
    ]);
    const consistency = page.locator('#bench-judge-metrics tr', { hasText: 'position consistency' });
    expect(await consistency.locator('td').first().textContent()).toBe('1');
    expect(await page.locator('#analysis-report a').getAttribute('href')).toBe(`api/runs/${benchRun}/report`);
    await expect.poll(() => page.locator('#samples-count').textContent()).toBe('3 samples');
    await shot(page, 'bench-run');

    await page.locator('[data-sample="b-2"] a').click();
    await page.locator('[data-judgment="bench"]').waitFor();
    const judgment = page.locator('[data-judgment="bench"]');
    expect(await judgment.locator('[data-grade]').first().getAttribute('data-grade')).toBe('correct');
    expect(await judgment.locator('[data-winner]').allTextContents()).toEqual([
      'the better response',
      'the better response',
    ]);
    // The judge's calls are there, with an injected script kept as text.
    await page.locator('[data-trace]').waitFor();
    expect(await page.locator('[data-trace]').textContent()).toMatch(/judge calls 2 · tokens/);
    await shot(page, 'bench-item');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should pass an accessibility check on the benchmark tables: no serious or critical violation', async () => {
    // Only this page bypasses the inspector's CSP, to load axe-core; the others keep it.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${view.url}#/runs/${benchRun}`);
    await page.locator('#bench-judge-metrics').waitFor();
    await page.addScriptTag({ path: join(repoRoot, 'node_modules/axe-core/axe.min.js') });
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (context: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null }> }>;
          };
        }
      ).axe;
      const { violations } = await axe.run({ include: [['#bench-summary']] });
      return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(violations).toEqual([]);
    await context.close();
  });

  test("should open a judge pairwise run: its verdict counts, and each row's GenRM judgment", async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${view.url}#/runs/${judgeRun}`);
    await page.locator('#judge-verdicts tbody tr').first().waitFor();
    const verdicts = await page
      .locator('#judge-verdicts tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    expect(verdicts).toEqual([['first', '3', '100%']]);
    expect(await page.locator('#analysis-report a').count()).toBe(0);
    await shot(page, 'judge-run');
    await page.goto(`${view.url}#/runs/${judgeRun}/samples/b-1`);
    await page.locator('[data-judgment="genrm"]').waitFor();
    expect(failures).toEqual([]);
    await page.close();
  });
});
