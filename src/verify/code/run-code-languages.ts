import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  JVM_COMPILER_FLAGS,
  javaClasspath,
  javaClasspathProblem,
  jvmBinds,
  jvmHeapMb,
} from './run-code-jvm.js';
import { COMPILED_RECIPES } from './run-code-recipes-compiled.js';
import { NODE_RECIPES } from './run-code-recipes-node.js';
import { SCRIPTING_RECIPES } from './run-code-recipes-scripting.js';

/**
 * How `/run_code` builds and runs one language inside bubblewrap, after SandboxFusion's runners
 * (`sandbox/runners/major.py`): the same compilers, flags and file names, so a program that works
 * there works here. Toolchains are the host's Debian packages, bound read-only into the sandbox.
 */
export interface LanguageRecipe {
  /** The file the code is written to, in the working directory (a function where upstream names it after the code). */
  readonly source: string | ((program: ProgramContext) => string);
  /**
   * Upstream's own refusal of a program before anything runs (Scala code without an `object`),
   * or the server's (a misconfigured Java jar folder): the message becomes a failed compile
   * result, as upstream answers.
   */
  readonly refuse?: (program: ProgramContext) => string | undefined;
  /** The code as upstream writes it to the file (PHP gets its `<?php` tag). */
  readonly rewrite?: (code: string) => string;
  /** Files the runner adds beside the request's (utf-8 text; a request file of the same name wins). */
  readonly extraFiles?: (program: ProgramContext) => Readonly<Record<string, string>>;
  /** The compile command, when the language has one (limited by `compile_timeout`). */
  readonly compile?: (program: ProgramContext) => readonly string[];
  /** The run command; `program.memoryMb` sizes runtimes that take a heap flag. */
  readonly run: (program: ProgramContext) => readonly string[];
  /**
   * `address-space`: the run also gets RLIMIT_AS = the memory limit. Node and the JVM reserve
   * gigabytes of address space at start-up and cannot run under it; their memory is bounded by
   * their heap flag and by the supervisor's count of the sandbox's resident memory.
   */
  readonly memory: 'address-space' | 'resident';
  /** Absolute paths that must exist on the host for the language to run. */
  readonly needs: readonly string[];
  /** The Debian package that provides them, for the error that says how to install it. */
  readonly debianPackage: string;
  /** Extra environment for compile and run. */
  readonly env?: Readonly<Record<string, string>>;
  /** Host directories outside the default binds the toolchain reads (bound read-only). */
  readonly binds?: (program: ProgramContext) => readonly string[];
  /**
   * Why the language cannot run with this server's configuration, saying how to provide what
   * is missing (jest, found in a Node modules folder at run time); checked on every request.
   */
  readonly unavailable?: (program: ProgramContext) => string | undefined;
  /** Source → JavaScript, done on the host before the run (TypeScript). */
  readonly transpile?: 'typescript';
  /** A check beyond `needs`, run once (pytest is a module, not a binary). */
  readonly probe?: () => boolean;
  /**
   * What the recipe finds out about the host once, before its first program (the C++ link
   * flags); awaited on every request, so it must settle at once after the first time.
   */
  readonly setUp?: () => Promise<void>;
}

/** What a recipe may read of the request when it builds its commands. */
export interface ProgramContext {
  readonly code: string;
  /** The request's file names (relative to the working directory). */
  readonly fileNames: readonly string[];
  readonly memoryMb: number;
  /** The Node modules folders on the sandbox's NODE_PATH (the server's own first, then Debian's). */
  readonly nodeModules?: readonly string[];
}

const PYTHON = '/usr/bin/python3';
const NODE = '/usr/bin/node';

const node = ({ memoryMb }: ProgramContext) => [
  NODE,
  `--max-old-space-size=${Math.max(16, memoryMb)}`,
  'main.js',
];

let linkFlags: string[] = [];
let linkFlagsProbed: Promise<void> | undefined;

/** Whether `g++` links an empty program with `flag` (asynchronously: a server keeps serving). */
const links = (flag: string) =>
  new Promise<boolean>((resolve) => {
    const child = spawn('/usr/bin/g++', ['-x', 'c++', '-', '-o', '/dev/null', flag], {
      stdio: ['pipe', 'ignore', 'ignore'],
      timeout: 30_000,
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
    child.stdin.end('int main() { return 0; }');
  });

/**
 * Upstream's C++ runner links `-lcrypto -lssl -lpthread` where each links (probed once at start),
 * so programs that use OpenSSL build there: the same here, probed once, before the first C++
 * program, by linking an empty one.
 */
function probeCppLinkFlags(): Promise<void> {
  linkFlagsProbed ??= (async () => {
    const flags = ['-lcrypto', '-lssl', '-lpthread'];
    const linked = await Promise.all(flags.map(links));
    linkFlags = flags.filter((_, i) => linked[i]);
  })();
  return linkFlagsProbed;
}

/** The languages of SandboxFusion's `major.py` that rewardkit runs, plus `c`. */
const MAJOR_RECIPES: Readonly<Record<string, LanguageRecipe>> = {
  python: {
    source: 'main.py',
    run: () => [PYTHON, 'main.py'],
    memory: 'address-space',
    needs: [PYTHON],
    debianPackage: 'python3',
    env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
  },
  pytest: {
    source: 'test_main.py',
    run: () => [PYTHON, '-m', 'pytest', '-p', 'no:cacheprovider', 'test_main.py'],
    memory: 'address-space',
    needs: [PYTHON],
    debianPackage: 'python3-pytest',
    env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
    probe: () => spawnSync(PYTHON, ['-c', 'import pytest'], { timeout: 10_000 }).status === 0,
  },
  cpp: {
    source: 'main.cpp',
    setUp: probeCppLinkFlags,
    compile: () => ['/usr/bin/g++', '-std=c++17', 'main.cpp', '-o', 'test', ...linkFlags],
    run: () => ['./test'],
    memory: 'address-space',
    needs: ['/usr/bin/g++'],
    debianPackage: 'g++',
  },
  c: {
    source: 'main.c',
    compile: () => ['/usr/bin/gcc', 'main.c', '-o', 'test', '-lm'],
    run: () => ['./test'],
    memory: 'address-space',
    needs: ['/usr/bin/gcc'],
    debianPackage: 'gcc',
  },
  go: {
    source: 'main.go',
    compile: () => ['/usr/bin/go', 'build', '-o', 'out', 'main.go'],
    run: () => ['./out'],
    // Go's runtime reserves its arenas lazily but still maps more than small limits allow.
    memory: 'resident',
    needs: ['/usr/bin/go'],
    debianPackage: 'golang-go',
    env: { GOCACHE: '/tmp/.cache/go-build', GOPATH: '/tmp/go', GO111MODULE: 'off', CGO_ENABLED: '0' },
  },
  java: {
    source: 'Main.java',
    refuse: javaClasspathProblem,
    compile: (program) => [
      '/usr/bin/javac',
      ...JVM_COMPILER_FLAGS.map((flag) => `-J${flag}`),
      '-cp',
      javaClasspath(program),
      'Main.java',
    ],
    run: (program) => [
      '/usr/bin/java',
      `-Xmx${jvmHeapMb(program.memoryMb)}m`,
      '-XX:+UseSerialGC',
      '-cp',
      javaClasspath(program),
      '-ea',
      'Main',
    ],
    memory: 'resident',
    needs: ['/usr/bin/javac', '/usr/bin/java'],
    debianPackage: 'default-jdk-headless',
    binds: jvmBinds,
  },
  rust: {
    source: 'main.rs',
    compile: () => ['/usr/bin/rustc', 'main.rs', '-o', 'test'],
    run: () => ['./test'],
    memory: 'address-space',
    needs: ['/usr/bin/rustc', '/usr/bin/cc'],
    debianPackage: 'rustc',
  },
  bash: {
    source: 'main.sh',
    run: () => ['/bin/bash', 'main.sh'],
    memory: 'address-space',
    needs: ['/bin/bash'],
    debianPackage: 'bash',
  },
  nodejs: { source: 'main.js', run: node, memory: 'resident', needs: [NODE], debianPackage: 'nodejs' },
  typescript: {
    source: 'main.js',
    run: node,
    memory: 'resident',
    needs: [NODE],
    debianPackage: 'nodejs',
    transpile: 'typescript',
  },
};

/** Every language `/run_code` knows, by SandboxFusion's names (`sandbox/runners/types.py`). */
export const LANGUAGE_RECIPES: Readonly<Record<string, LanguageRecipe>> = {
  ...MAJOR_RECIPES,
  ...NODE_RECIPES,
  ...SCRIPTING_RECIPES,
  ...COMPILED_RECIPES,
};

/** SandboxFusion's short names for the same runners (`MAJOR_RUNNERS` in `sandbox/runners/major.py`). */
export const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  js: 'nodejs',
  javascript: 'nodejs',
  ts: 'typescript',
  python3: 'python',
};

/** The recipe name a request's language selects (`js` → `nodejs`). */
export const canonicalLanguage = (language: string): string => LANGUAGE_ALIASES[language] ?? language;

/**
 * SandboxFusion's `Language` literal (`sandbox/runners/types.py`): a name outside it is a bad
 * request (upstream answers 422), a name in it that rewardkit does not run is a `SandboxError`.
 */
export const SANDBOX_FUSION_LANGUAGES = [
  'python',
  'cpp',
  'nodejs',
  'go',
  'go_test',
  'java',
  'php',
  'csharp',
  'bash',
  'typescript',
  'sql',
  'rust',
  'cuda',
  'lua',
  'R',
  'perl',
  'D_ut',
  'ruby',
  'scala',
  'julia',
  'pytest',
  'junit',
  'kotlin_script',
  'jest',
  'verilog',
  'python_gpu',
  'lean',
  'swift',
  'racket',
] as const;

const available = new Map<string, string | undefined>();

/**
 * Why `language` cannot run on this host (the missing path and the Debian package to install),
 * or `undefined` when it can. Checked once per language.
 */
export function missingToolchain(language: string, recipe: LanguageRecipe): string | undefined {
  if (!available.has(language)) {
    const missing = recipe.needs.find((path) => !existsSync(path));
    const reason = missing
      ? `${missing} is missing`
      : recipe.probe && !recipe.probe()
        ? 'the toolchain is incomplete'
        : undefined;
    available.set(
      language,
      reason &&
        `language "${language}" needs the Debian package "${recipe.debianPackage}" on the server (${reason}): apt-get install ${recipe.debianPackage}`,
    );
  }
  return available.get(language);
}
