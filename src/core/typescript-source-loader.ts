/**
 * Node module hooks that let a worker thread load rewardkit's TypeScript sources (with their `.js`
 * import specifiers) through the `typescript` package's transpiler. Only used when rewardkit runs
 * from its sources — under vitest, where there is no compiled `.js` for a worker to start from;
 * the built package starts its workers from `dist/`.
 */
const HOOKS = `
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
let ts;
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const asTs = new URL(specifier.slice(0, -3) + '.ts', context.parentURL);
    if (!existsSync(fileURLToPath(new URL(specifier, context.parentURL))) && existsSync(fileURLToPath(asTs))) {
      return { url: asTs.href, shortCircuit: true };
    }
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  ts ??= createRequire(url)('typescript');
  const file = fileURLToPath(url);
  const out = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    fileName: file,
  });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
`;

const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** `execArgv` for a worker started from a `.ts` file. */
export const TYPESCRIPT_SOURCE_EXEC_ARGV: readonly string[] = [
  '--import',
  `data:text/javascript,${encodeURIComponent(REGISTER)}`,
];
