import { existsSync } from 'node:fs';
import type { LanguageRecipe } from './run-code-languages.js';

// Debian names the interpreter lua5.4; /usr/bin/lua is the alternatives link other installs have.
const LUA = ['/usr/bin/lua5.4', '/usr/bin/lua'].find((path) => existsSync(path)) ?? '/usr/bin/lua5.4';

/** Whether Python's `str.isspace` holds for the UTF-16 unit `c` (what upstream's `lstrip()` removes). */
const isPythonSpace = (c: number) =>
  (c >= 0x09 && c <= 0x0d) ||
  (c >= 0x1c && c <= 0x20) ||
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;

/**
 * PHP source as upstream writes it (`ensure_php_tag_in_string` in `sandbox/utils/common.py`):
 * leading whitespace removed, and `<?php` put in front when the code does not start with it.
 */
export function ensurePhpTag(code: string): string {
  let start = 0;
  while (start < code.length && isPythonSpace(code.charCodeAt(start))) start++;
  const stripped = code.slice(start);
  return stripped.startsWith('<?php') ? stripped : `<?php\n${stripped}`;
}

/** Only the directories of `paths` that exist here (a runtime's configuration, for `binds`). */
const existing = (...paths: string[]) => paths.filter((path) => existsSync(path));

/**
 * The interpreted languages of SandboxFusion's `minor.py` (lua, R, perl, ruby, racket) and
 * `major.py` (php): no compile step, the interpreter runs the file, as upstream's runners do.
 *
 * All six run under RLIMIT_AS, as upstream's runner sets it for every language. Measured with
 * Debian 12's packages, the least address space a trivial program starts in: lua and perl 19 MB,
 * php 67 MB, ruby 75 MB, R 82 MB, racket 149 MB (`#lang racket` loads about 136 MB resident, so
 * a limit under 150 MB stops racket at start-up in either memory mode, as it does upstream).
 */
export const SCRIPTING_RECIPES: Readonly<Record<string, LanguageRecipe>> = {
  lua: {
    source: 'main.lua',
    run: () => [LUA, 'main.lua'],
    memory: 'address-space',
    needs: [LUA],
    debianPackage: 'lua5.4',
  },
  perl: {
    source: 'main.pl',
    run: () => ['/usr/bin/perl', 'main.pl'],
    memory: 'address-space',
    needs: ['/usr/bin/perl'],
    debianPackage: 'perl',
  },
  php: {
    source: 'main.php',
    rewrite: ensurePhpTag,
    run: () => ['/usr/bin/php', '-f', 'main.php'],
    memory: 'address-space',
    needs: ['/usr/bin/php'],
    debianPackage: 'php-cli',
    // php.ini and conf.d, which load the shared extensions (readline, ctype, sockets, …).
    binds: () => existing('/etc/php'),
  },
  ruby: {
    source: 'main.rb',
    run: () => ['/usr/bin/ruby', 'main.rb'],
    memory: 'address-space',
    needs: ['/usr/bin/ruby'],
    debianPackage: 'ruby',
  },
  R: {
    source: 'main.R',
    run: () => ['/usr/bin/Rscript', 'main.R'],
    memory: 'address-space',
    needs: ['/usr/bin/Rscript'],
    debianPackage: 'r-base-core',
    // R_HOME/etc links into /etc/R: without Renviron R finds none of its default packages.
    binds: () => existing('/etc/R'),
  },
  racket: {
    source: 'main.rkt',
    run: () => ['/usr/bin/racket', 'main.rkt'],
    memory: 'address-space',
    needs: ['/usr/bin/racket'],
    debianPackage: 'racket',
    // config.rktd names the compiled collections and the package directory: without it
    // `#lang racket` is compiled from source (20 s) and rackunit is not found.
    binds: () => existing('/etc/racket'),
  },
};
