import type { CallTrace } from '../../llm/index.js';

export type ClaimRole = 'proposer' | 'checker' | 'matcher';

/** A call of the claim check, with the role that made it (for usage per role and audits). */
export type ClaimCallTrace = CallTrace & { readonly role: ClaimRole };

export const tagCalls = (role: ClaimRole, calls: readonly CallTrace[]): ClaimCallTrace[] =>
  calls.map((c) => ({ ...c, role }));
