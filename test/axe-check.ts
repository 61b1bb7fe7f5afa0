import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core's serious and critical violations on the page as it stands, one line each (rule,
 * impact, the elements). The page must be opened with `bypassCSP`: its CSP refuses injected scripts.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    type Violation = { id: string; impact: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (o: object) => Promise<{ violations: Violation[] }> } })
      .axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
