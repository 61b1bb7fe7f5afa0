import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { okResult } from '../src/store/test-utils/store-conformance.js';
import { repoRoot, tempDir } from './cli-harness.js';
import { chromiumPath, startView } from './view-harness.js';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it), or REWARDKIT_CHROMIUM. */

const RUN = 'run-labels';
/** Responses a spreadsheet would run as formulas, and one with a comma and quotes. */
const responses = ['=1+1', 'plain', '@SUM(A1)', 'a, "b"', '-3', 'ok'];

describe.skipIf(!chromiumPath)('labels and export in rewardkit view, in a real browser', () => {
  let browser: Browser;
  let child: ChildProcess;
  let url = '';

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
    const path = join(tempDir(), 'store.sqlite');
    const store = openSqliteStore(path);
    await store.createRun({ id: RUN, spec_name: 'math', spec: {} });
    await store.saveResults(
      RUN,
      responses.map((_, i) => okResult(`s${i}`, (i % 3) / 2)),
      { samples: responses.map((response) => ({ prompt: 'p', response })) },
    );
    await store.finishRun(RUN, { rows: responses.length, failed: 0 });
    await store.close();
    ({ url, child } = await startView(path, ['--allow-labels']));
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    child?.kill();
  });

  test('should write a label on the sample page and read it back after a reload', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${url}#/runs/${RUN}/samples/s1`);
    await page.locator('#label-save').waitFor();
    expect(await page.locator('#label-current').textContent()).toBe('No label yet.');
    await page.check('input[name="label-kind"][value="score"]');
    await page.fill('#label-score', '0.4');
    await page.fill('#label-note', 'half the steps <b>right</b>');
    await page.click('#label-save');
    await expect.poll(() => page.locator('#label-status').textContent()).toBe('Saved.');
    await page.reload();
    await expect
      .poll(() => page.locator('#label-current').textContent())
      .toBe('score 0.4 — half the steps <b>right</b>');
    const stored = await page.evaluate(async (run) => (await fetch(`api/runs/${run}/labels`)).json(), RUN);
    expect(stored.labels).toMatchObject([{ sample_id: 's1', kind: 'score', score: 0.4 }]);
    // A score out of range is refused in the page, before anything is sent.
    await page.check('input[name="label-kind"][value="score"]');
    await page.fill('#label-score', '3');
    await page.click('#label-save');
    await expect
      .poll(() => page.locator('#label-status').textContent())
      .toBe('A score is a number from 0 to 1.');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should export from the run page the rows the table shows, JSONL and CSV, with formulas made inert', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}#/runs/${RUN}`);
    await page.locator('#export-links a').first().waitFor();
    await page.fill('input[name="min_reward"]', '0.5');
    await page.click('form.filters button[type="submit"]');
    await expect
      .poll(() => page.locator('#export-links a').first().getAttribute('href'))
      .toContain('min_reward=0.5');
    const [jsonlHref, csvHref] = await page
      .locator('#export-links a')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    const fetched = await page.evaluate(
      async ({ jsonl, csv, run }) => ({
        jsonl: await (await fetch(jsonl as string)).text(),
        csv: await (await fetch(csv as string)).text(),
        api: await (await fetch(`api/runs/${run}/samples?min_reward=0.5&limit=1000`)).json(),
      }),
      { jsonl: jsonlHref, csv: csvHref, run: RUN },
    );
    const rows = fetched.api.rows as { sample_id: string; response_preview: string }[];
    expect(rows.length).toBe(4);
    expect(
      fetched.jsonl
        .trimEnd()
        .split('\n')
        .map((line: string) => JSON.parse(line)),
    ).toEqual(rows);
    const lines = fetched.csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines.slice(1).map((line: string) => line.split(',')[0])).toEqual(rows.map((r) => r.sample_id));
    // Each formula-like response starts with an apostrophe in its cell.
    expect(fetched.csv).not.toMatch(/(^|,)[=@+]/m);
    expect(fetched.csv).toContain(",'@SUM(A1),");
    expect(fetched.csv).toContain(",'-3,");
    await page.close();
  });
});
