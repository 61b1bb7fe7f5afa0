/**
 * A skill package as text: posix paths relative to the package root (`SKILL.md`,
 * `references/code.md`) mapped to their contents. The validator and the patch engine work on this
 * value, never on the directory, so an evolved skill is checked before anything is written.
 */
export type SkillFiles = ReadonlyMap<string, string>;

export const SKILL_FILE = 'SKILL.md';
export const RESOURCES_FILE = 'resources.yaml';
export const REFERENCES_DIR = 'references/';

/** Lines of a text as an editor numbers them: a final newline does not start another line. */
export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** A `references/*.md` file: the level-one documents SKILL.md links to. */
export function isReferencePath(path: string): boolean {
  return (
    path.startsWith(REFERENCES_DIR) &&
    path.endsWith('.md') &&
    !path.slice(REFERENCES_DIR.length).includes('/')
  );
}
