import { promptNonce, untrustedBlock } from '../../judges/index.js';
import type { SkillFiles } from '../skill-files.js';

/**
 * A skill's text files as a model reads them: each file under its path, inside a nonce-tagged
 * block (skill text is data to edit, not instructions to follow).
 */
export function renderSkillFiles(files: SkillFiles): string {
  const texts = [...files].filter(([path]) => isText(path));
  const nonce = promptNonce(...texts.flat());
  if (texts.length === 0) return '(the skill has no files yet)';
  return texts.map(([path, text]) => `File ${path}:\n${untrustedBlock('file', text, nonce)}`).join('\n\n');
}

function isText(path: string): boolean {
  return /\.(md|markdown|txt|ya?ml|json)$/i.test(path);
}
