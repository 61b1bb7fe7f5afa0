import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A `rewardkit …` command line shown in the docs. */
export interface DocCommand {
  /** `docs/cli.md:120`, for failure messages. */
  where: string;
  /** The doc file, relative to the repository. */
  file: string;
  /** The command as shown, continuations joined, without the leading `npx`/`$`. */
  text: string;
  /** Its words, after `rewardkit`, quotes removed. */
  argv: string[];
  /** A synopsis (`<file>`, `[--flag]`, `…`, `a|b`) shows the flags, not a runnable line. */
  synopsis: boolean;
  /** The exit code a trailing `# exit N` comment promises, if any. */
  exit?: number;
}

/** README.md and every markdown file under docs/, in a stable order. */
export function docFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) =>
        entry.isDirectory()
          ? walk(join(dir, entry.name))
          : entry.name.endsWith('.md')
            ? [join(dir, entry.name)]
            : [],
      );
  return [join(root, 'README.md'), ...walk(join(root, 'docs'))];
}

/**
 * Every `rewardkit` command in a fenced shell block (```sh, ```bash or no language) and in the
 * first column of a markdown table (README's command list), in document order.
 */
export function extractDocCommands(root: string, path: string): DocCommand[] {
  const file = relative(root, path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const found: DocCommand[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const opening = /^\s*```(\w*)\s*$/.exec(line);
    if (opening) {
      fence = fence === undefined ? (opening[1] ?? '') : undefined;
      continue;
    }
    if (fence !== undefined) {
      if (!['', 'sh', 'bash', 'shell', 'console'].includes(fence)) continue;
      let text = line.trim().replace(/^\$\s+/, '');
      const start = i;
      while (text.endsWith('\\') && i + 1 < lines.length)
        text = `${text.slice(0, -1).trimEnd()} ${(lines[++i] as string).trim()}`;
      if (/^(npx\s+)?rewardkit\s/.test(text)) found.push(command(`${file}:${start + 1}`, file, text));
      continue;
    }
    const cell = /^\|\s*`((?:npx\s+)?rewardkit\s[^`]*)`/.exec(line);
    if (cell?.[1]) found.push(command(`${file}:${i + 1}`, file, cell[1]));
  }
  return found;
}

function command(where: string, file: string, shown: string): DocCommand {
  const { words, comment } = shellWords(shown.replace(/^npx\s+/, ''));
  const exit = /\bexit (\d+)\b/.exec(comment ?? '')?.[1];
  if (words[words.length - 1]?.text === '&') words.pop();
  const argv = words.slice(1).map((w) => w.text);
  // `<file>`, `[--flag x]`, `…` and `a|b` mark a synopsis; `responses[0]` in a --map is a real value.
  const synopsis = words.some((w) => !w.quoted && /<[^>]*>|^\[|\]$|…|\|/.test(w.text));
  return { where, file, text: shown, argv, synopsis, ...(exit !== undefined && { exit: Number(exit) }) };
}

/** Splits a command line as sh would (quotes, `#` comments); enough for documentation examples. */
function shellWords(line: string): { words: Array<{ text: string; quoted: boolean }>; comment?: string } {
  const words: Array<{ text: string; quoted: boolean }> = [];
  let current: { text: string; quoted: boolean } | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      current ??= { text: '', quoted: true };
      current.text += line.slice(i + 1, end < 0 ? undefined : end);
      current.quoted = true;
      i = end < 0 ? line.length : end;
    } else if (/\s/.test(c)) {
      if (current) words.push(current);
      current = undefined;
    } else if (c === '#' && current === undefined) {
      return { words, comment: line.slice(i + 1) };
    } else {
      current ??= { text: '', quoted: false };
      current.text += c;
    }
  }
  if (current) words.push(current);
  return { words };
}
