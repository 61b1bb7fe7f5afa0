/** Why a scoring failed: the row's errors, else the reasons of its sources that could not score. */
export function failureReasons(result: {
  readonly errors: readonly string[];
  readonly evidence: readonly { source: string; reason?: string; verdict: string }[];
}): string[] {
  if (result.errors.length > 0) return [...result.errors];
  const reasons = result.evidence.flatMap((e) =>
    e.verdict === 'error' && e.reason ? [`${e.source}: ${e.reason}`] : [],
  );
  return reasons.length > 0 ? reasons : ['failed without a reason'];
}
