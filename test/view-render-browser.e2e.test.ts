import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { failedResult, type RewardResult } from '../src/core/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { okResult } from '../src/store/test-utils/store-conformance.js';
import { seriousViolations } from './axe-check.js';
import { repoRoot, tempDir } from './cli-harness.js';
import { chromiumPath, startView } from './view-harness.js';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it), or REWARDKIT_CHROMIUM. */

const [A, B] = ['run-render-a', 'run-render-b'];
const MATH = [
  '## Working',
  '',
  'The area is $x^2$ where **x** is the side, so the answer is \\boxed{42}.',
  '',
  '```python',
  'def area(x):',
  '    return x ** 2',
  '```',
].join('\n');
/** Each payload sets a flag on `window` if it ever runs. */
const PAYLOADS = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '[click](javascript:window.__pwned=3)',
  '![pic](data:image/png;base64,AAAA)',
  '![svg](data:image/svg+xml,<svg onload="window.__pwned=4"/>)',
];
const PWN = `Some *markdown* first.\n\n${PAYLOADS.join('\n\n')}\n\nInline <script>window.__pwned = 5</script> too.`;

/** A result whose math source extracted `answer` from the response. */
const answered = (id: string, reward: number, answer: string): RewardResult => {
  const base = okResult(id, reward);
  const [first, ...rest] = base.evidence;
  return {
    ...base,
    evidence: [{ ...(first as RewardResult['evidence'][number]), detail: { extracted: answer } }, ...rest],
  };
};

async function flagged(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as { __pwned?: unknown }).__pwned);
}

describe.skipIf(!chromiumPath)('rendered text and accessibility in rewardkit view, in a real browser', () => {
  let browser: Browser;
  let child: ChildProcess;
  let url = '';

  beforeAll(async () => {
    // The web app is built by `npm run build`; the tests' global setup compiles only the CLI.
    if (!existsSync(join(repoRoot, 'dist/view-app/index.html'))) {
      execFileSync(
        process.execPath,
        ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts'],
        { cwd: repoRoot },
      );
    }
    const path = join(tempDir(), 'store.sqlite');
    const store = openSqliteStore(path);
    for (const [run, reward] of [
      [A, 1],
      [B, 0.5],
    ] as const) {
      await store.createRun({ id: run, spec_name: 'math', spec: {} });
      await store.saveResults(
        run,
        [
          answered('math', reward, '42'),
          answered('pwn', reward, 'markdown'),
          failedResult('broken', ['judge timed out']),
        ],
        {
          samples: [
            { prompt: 'Find the area of a square of side $x$.', response: MATH, reference: '$42$' },
            { prompt: [{ role: 'user', content: `Say ${PAYLOADS[0]}` }], response: PWN, reference: PWN },
            { prompt: 'p', response: run === A ? 'First **draft**.' : 'Second **draft**.' },
          ],
        },
      );
      await store.finishRun(run, { rows: 3, failed: 1 });
    }
    await store.close();
    ({ url, child } = await startView(path));
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    child?.kill();
  });

  // `bypassCSP` only where axe-core is injected: the page's CSP refuses any script of its own.
  async function open(hash: string, width = 1280, bypassCSP = false) {
    const page = await browser.newPage({ viewport: { width, height: 900 }, bypassCSP });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('dialog', (dialog) => {
      failures.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(`${url}${hash}`);
    return { page, failures };
  }

  test('should render LaTeX as MathML, Markdown as HTML and code highlighted, with the answer marked', async () => {
    const { page, failures } = await open(`#/runs/${A}/samples/math`);
    const response = page.locator('#response [data-rendered]');
    await response.waitFor();
    expect(await response.locator('math').count()).toBe(2);
    expect(await response.locator('math').first().textContent()).toContain('x2');
    expect(await response.locator('menclose[notation="box"]').textContent()).toBe('42');
    expect(await response.locator('h2').textContent()).toBe('Working');
    expect(await response.locator('strong').textContent()).toBe('x');
    const code = response.locator('pre.code[data-language="python"] code.hljs');
    expect(await code.locator('.hljs-keyword').first().textContent()).toBe('def');
    expect(await code.textContent()).toBe('def area(x):\n    return x ** 2');
    // The prompt and the reference are rendered too: their own formulas.
    expect(await page.locator('[data-rendered] math').count()).toBe(4);
    // The answer is marked where it is plain text; here it sits in a formula, so the raw view marks it.
    expect(await response.locator('mark').count()).toBe(0);
    await page.click('[data-mode-toggle="response"]');
    expect(await page.locator('#response mark').textContent()).toBe('42');
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should show the raw text one click away, per block, and back', async () => {
    const { page, failures } = await open(`#/runs/${A}/samples/math`);
    await page.locator('#response [data-rendered]').waitFor();
    const toggle = page.locator('[data-mode-toggle="response"]');
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#response pre.text').textContent()).toBe(MATH);
    expect(await page.locator('#response math').count()).toBe(0);
    // The other blocks keep their own state.
    expect(await page.locator('[data-mode-toggle="prompt"]').getAttribute('aria-pressed')).toBe('false');
    expect(await page.locator('#reference [data-rendered] math').count()).toBe(1);
    await toggle.click();
    await page.locator('#response [data-rendered] math').first().waitFor();
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should show injected markup as text in rendered and raw views, never run it or load it', async () => {
    const { page, failures } = await open(`#/runs/${A}/samples/pwn`);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const response = page.locator('#response [data-rendered]');
    await response.waitFor();
    await page.locator('#reference [data-rendered]').waitFor();
    expect(await response.locator('em').textContent()).toBe('markdown');
    // The extracted answer is plain text here: marked in the rendered view as in the raw one.
    expect(await response.locator('em mark').textContent()).toBe('markdown');
    for (const block of ['#response', '#reference']) {
      expect(await page.locator(`${block} script, ${block} img, ${block} svg, ${block} iframe`).count()).toBe(
        0,
      );
      expect(await page.locator(`${block} a`).count()).toBe(0);
      const text = await page.locator(block).textContent();
      expect(text).toContain(PAYLOADS[0]);
      expect(text).toContain(PAYLOADS[1]);
      expect(text).toContain('Inline <script>window.__pwned = 5</script> too.');
    }
    // A link to javascript: keeps its words, not its target; an image shows as its alt text.
    expect(await response.textContent()).toContain('click');
    expect(await response.textContent()).toContain('[image: pic]');
    expect(await page.locator('main script').count()).toBe(0);
    await page.click('[data-mode-toggle="response"]');
    expect(await page.locator('#response pre.text').textContent()).toBe(PWN);
    await page.click('[data-mode-toggle="response"]');
    await response.waitFor();
    expect(await flagged(page)).toBeUndefined();
    expect(requests.filter((r) => !r.startsWith(url))).toEqual([]);
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should render both responses side by side on the compare page, the diff one click back', async () => {
    const { page, failures } = await open(`#/compare/${A}/${B}/samples/broken`);
    await page.locator('.word-diff').waitFor();
    expect(await page.locator('.diff-a').textContent()).toBe('First **draft**.');
    await page.click('[data-mode-toggle="responses"]');
    const sides = page.locator('#rendered-responses [data-rendered]');
    await sides.nth(1).waitFor();
    expect(await sides.locator('strong').allTextContents()).toEqual(['draft', 'draft']);
    expect(await sides.allTextContents()).toEqual(['First draft.', 'Second draft.']);
    expect(failures).toEqual([]);
    await page.close();
  });

  test('should keep a rendered sample within an 800 px window', async () => {
    const { page, failures } = await open(`#/runs/${A}/samples/math`, 800);
    const response = page.locator('#response [data-rendered]');
    await response.locator('math').first().waitFor();
    // The page itself never scrolls sideways; the response keeps most of the width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    expect((await response.boundingBox())?.width).toBeGreaterThan(600);
    expect(failures).toEqual([]);
    await page.close();
  });

  test.each([
    ['the runs list', '#/', '#runs tbody tr'],
    ['a run', `#/runs/${A}`, '[data-sample="math"]'],
    ['a sample', `#/runs/${A}/samples/math`, '#response [data-rendered] math'],
    ['a compared sample', `#/compare/${A}/${B}/samples/math`, '#compare-numbers'],
    ['the compare page', `#/compare/${A}/${B}`, '#compare-counts'],
  ])('should have no serious accessibility violations on %s', async (_, hash, ready) => {
    const { page, failures } = await open(hash, 1280, true);
    await page.locator(ready).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(failures).toEqual([]);
    await page.close();
  });
});
