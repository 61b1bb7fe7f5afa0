import { describe, expect, test } from 'vitest';
import { parseDomainPool } from './domain-pool.js';
import { domainPoolChanges, parseDomainPoolReview, renderDomainPoolReview } from './domain-pool-review.js';

const pool =
  '# Cooking\nRecipes and kitchen advice.\n\n- [core] Works: complete steps.\n- [highlight] Plating: a serving idea.\n';

describe('domain pool review files', () => {
  test('should read back an exported pool as pending, with the pool unchanged', () => {
    const parsed = parseDomainPoolReview(renderDomainPoolReview(pool), 'review/cooking.md');
    expect(parsed).toMatchObject({ ok: true, status: 'pending', markdown: pool });
    if (parsed.ok) expect(parsed.pool.criteria.map((c) => c.line)).toEqual([7, 8]);
  });

  test('should name added, removed and edited criteria', () => {
    const before = parseDomainPool(pool, 'cooking.md');
    const after = parseDomainPool(
      pool
        .replace('complete steps', 'complete, ordered steps')
        .replace(/- \[highlight\].*\n/, '- [important] Allergens: names them.\n'),
      'cooking.md',
    );
    expect(domainPoolChanges(before, after)).toEqual({
      added: ['Allergens'],
      removed: ['Plating'],
      edited: ['Works'],
    });
  });
});
