import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LanguageRecipe, ProgramContext } from './run-code-languages.js';

const NODE = '/usr/bin/node';
const WORKDIR = '/tmp';

/**
 * A package's folder: from the offered Node modules folders first (the user's own install),
 * else rewardkit's own dependencies. Symlinks resolved, since the folder is bound at that path.
 */
function packageFolder(name: string, program: ProgramContext): string | undefined {
  for (const folder of program.nodeModules ?? []) {
    if (existsSync(join(folder, name, 'package.json'))) return realpathSync(join(folder, name));
  }
  if (!own.has(name)) {
    try {
      own.set(name, dirname(realpathSync(createRequire(import.meta.url).resolve(`${name}/package.json`))));
    } catch {
      own.set(name, undefined);
    }
  }
  return own.get(name);
}

/** rewardkit's own copies, resolved once. */
const own = new Map<string, string | undefined>();

/** The node_modules folder holding a package, which holds its hoisted dependencies too. */
const modulesOf = (packageDir: string) => dirname(packageDir);

/**
 * jest's transform: TypeScript → CommonJS with the `typescript` package's `transpileModule` (types
 * erased, nothing type-checked; a syntax error fails the suite), where upstream runs babel's
 * TypeScript preset.
 */
const transformer = (typescript: string) => `const ts = require(${JSON.stringify(typescript)});
module.exports = {
  process(sourceText, sourcePath) {
    const out = ts.transpileModule(sourceText, {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        sourceMap: true,
      },
      fileName: sourcePath,
      reportDiagnostics: true,
    });
    // transpileModule recovers from syntax errors; babel, upstream's transform, fails the suite.
    const [first] = out.diagnostics || [];
    if (first) {
      const at = first.file ? first.file.getLineAndCharacterOfPosition(first.start) : { line: 0, character: 0 };
      const message = ts.flattenDiagnosticMessageText(first.messageText, '\\n');
      throw new SyntaxError(\`\${sourcePath}:\${at.line + 1}:\${at.character + 1}: \${message}\`);
    }
    return { code: out.outputText, map: out.sourceMapText };
  },
};
`;

/** Upstream's jest-json-reporter: the aggregated results written to jest-report.json in the working directory. */
const REPORTER = `const { writeFileSync } = require('node:fs');
module.exports = (results) => {
  writeFileSync('jest-report.json', JSON.stringify(results));
  return results;
};
`;

const JEST_MISSING = (what: string) =>
  `language "jest" needs ${what} on the server: install it in a folder (npm i jest typescript) and start the server with --sandbox-node-path <folder>/node_modules (or REWARDKIT_SANDBOX_NODE_PATH)`;

/**
 * SandboxFusion's `run_jest`: the code is a TypeScript test file run by jest 29, exit code as
 * jest's (1 when a test fails). Upstream writes `<random>.test.ts` beside its runtime's
 * package.json and runs `npm run test` (babel, `maxWorkers: 2`, jest-json-reporter); here jest runs
 * from its own folder bound read-only, with a config, a transformer and a reporter written beside
 * the test, the cache in the sandbox's /tmp and no watchman.
 */
const jest: LanguageRecipe = {
  source: 'main.test.ts',
  unavailable: (program) => {
    if (!packageFolder('jest', program)) return JEST_MISSING('jest');
    if (!packageFolder('typescript', program))
      return JEST_MISSING('typescript (jest transpiles the test with it)');
    return undefined;
  },
  binds: (program) =>
    ['jest', 'typescript'].flatMap((name) => {
      const folder = packageFolder(name, program);
      return folder ? [modulesOf(folder)] : [];
    }),
  extraFiles: (program) => {
    const typescript = packageFolder('typescript', program) as string;
    const config = {
      rootDir: WORKDIR,
      testEnvironment: 'node',
      transform: { '\\.[cm]?[jt]sx?$': `${WORKDIR}/jest-ts-transform.cjs` },
      // Installed modules run as they are: only the request's own files are transpiled.
      transformIgnorePatterns: ['/node_modules/', '^/usr/', ...(program.nodeModules ?? []).map(escapeRegExp)],
      modulePaths: program.nodeModules ?? [],
      cacheDirectory: `${WORKDIR}/.jest-cache`,
      watchman: false,
      maxWorkers: 1,
      testResultsProcessor: `${WORKDIR}/jest-json-report.cjs`,
    };
    return {
      'jest.config.json': JSON.stringify(config),
      'jest-ts-transform.cjs': transformer(typescript),
      'jest-json-report.cjs': REPORTER,
    };
  },
  run: (program) => [
    NODE,
    `--max-old-space-size=${Math.max(64, program.memoryMb)}`,
    join(packageFolder('jest', program) as string, 'bin', 'jest.js'),
    '--config',
    'jest.config.json',
    '--ci',
    '--no-cache',
  ],
  memory: 'resident',
  needs: [NODE],
  debianPackage: 'nodejs',
  env: { FORCE_COLOR: '0' },
};

const escapeRegExp = (text: string) => `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`;

/** Node's test runners (SandboxFusion's `jest`). */
export const NODE_RECIPES: Readonly<Record<string, LanguageRecipe>> = { jest };
