/** SAFE's F1@K with its parts. */
export interface SafeF1 {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/**
 * SAFE F1@K (long-form factuality): precision S/(S+N) over supported (S) and not-supported (N)
 * claims, recall min(1, S/K) against K, the number of supported facts a user wants; F1 is 0 when
 * nothing is supported. Undefined for an answer with no claims.
 */
export function safeF1AtK(supported: number, notSupported: number, k: number): SafeF1 | undefined {
  if (!(k > 0)) throw new RangeError(`K must be positive, got ${k}`);
  if (supported + notSupported <= 0) return undefined;
  const precision = supported / (supported + notSupported);
  const recall = Math.min(1, supported / k);
  const f1 = supported === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
