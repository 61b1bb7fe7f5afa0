/** SKILL.md cut into its YAML front matter and its markdown body, with where each starts. */
export interface FrontMatterSplit {
  readonly yaml: string;
  /** The file line of the front matter's first YAML line (2: line 1 is `---`). */
  readonly yamlLine: number;
  readonly body: string;
  /** The file line the body starts on. */
  readonly bodyLine: number;
}

/**
 * Splits a SKILL.md text at its front matter: a first line `---`, the YAML, a line `---`.
 * `undefined` when the file does not open with front matter or never closes it.
 */
export function splitFrontMatter(text: string): FrontMatterSplit | undefined {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if (lines[0]?.trimEnd() !== '---') return undefined;
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (close < 0) return undefined;
  return {
    yaml: lines.slice(1, close).join('\n'),
    yamlLine: 2,
    body: lines.slice(close + 1).join('\n'),
    bodyLine: close + 2,
  };
}
