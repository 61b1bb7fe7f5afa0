import type { PremiseAuditor, PremiseContradiction } from './premise-audit.js';
import { distinctContradictions } from './premise-audit.js';
import { premiseReliability } from './premise-reliability.js';

/** Spatial relations and their converses: a relation fact is a key premise (High). */
export const RELATION_CONVERSES: Readonly<Record<string, string>> = {
  'left of': 'right of',
  'right of': 'left of',
  above: 'below',
  below: 'above',
  'in front of': 'behind',
  behind: 'in front of',
  inside: 'outside',
  outside: 'inside',
  on: 'under',
  under: 'on',
};

const PRESENCE = new Set(['true', 'false', 'yes', 'no', 'present', 'absent']);

/** `key: value` split at the first colon, normalized; null for a line of another shape. */
function keyValue(line: string): { key: string; value: string } | null {
  const colon = line.indexOf(':');
  if (colon <= 0) return null;
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  return { key: norm(line.slice(0, colon)), value: norm(line.slice(colon + 1)) };
}

const asNumber = (v: string) => (v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);

function differs(a: string, b: string): boolean {
  const [x, y] = [asNumber(a), asNumber(b)];
  return x !== undefined && y !== undefined ? x !== y : a !== b;
}

/** Counts, relations and presence are key premises; any other attribute is secondary. */
function severityOf(value: string): 'High' | 'Low' {
  return asNumber(value) !== undefined || value in RELATION_CONVERSES || PRESENCE.has(value) ? 'High' : 'Low';
}

/**
 * A deterministic auditor over `key: value` facts (symbolic images and the shipped examples; the
 * real pipeline uses the LLM auditor): a claim contradicts a key fact with the same key and a
 * different value (numbers compared as numbers). Claims about keys the constraints lack are
 * omissions, not contradictions; uncertain items never contradict.
 */
export const ruleBasedPremiseAuditor: PremiseAuditor = async (checklist, constraints) => {
  const facts = new Map<string, string>();
  for (const line of constraints.key_facts) {
    const kv = keyValue(line);
    if (kv) facts.set(kv.key, kv.value);
  }
  const found: PremiseContradiction[] = [];
  for (const claim of checklist) {
    const kv = keyValue(claim);
    const fact = kv ? facts.get(kv.key) : undefined;
    if (!kv || fact === undefined || !differs(kv.value, fact)) continue;
    found.push({
      claim,
      constraint: `${kv.key}: ${fact}`,
      severity: severityOf(fact),
      explanation: `the image has ${kv.key} = ${fact}, the step read ${kv.value}`,
    });
  }
  const contradictions = distinctContradictions(found);
  return {
    status: 'ok',
    p: premiseReliability(contradictions.map((c) => c.severity)),
    contradictions,
    calls: [],
  };
};
