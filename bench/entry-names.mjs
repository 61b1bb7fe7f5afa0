// Counts the public names of every package entry (package.json "exports"): runtime names (values)
// and type-only names, read from the entry's source with the TypeScript compiler, and lists any name
// that two entries export with different declarations. Run: node bench/entry-names.mjs [--list]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// Module entries only: "./package.json" is the manifest itself.
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target !== 'string')
  .map(([subpath, target]) => ({
    name: subpath === '.' ? 'rewardkit' : `rewardkit/${subpath.slice(2)}`,
    file: path.join(root, target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
  }));

const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, ts.sys);
const program = ts.createProgram(
  entries.map((e) => e.file),
  config.options,
);
const checker = program.getTypeChecker();

const declarationOf = (symbol) => {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const decl = target.declarations?.[0];
  return {
    target,
    where: decl ? `${path.relative(root, decl.getSourceFile().fileName)}:${target.name}` : target.name,
  };
};

const owners = new Map();
const rows = [];
for (const entry of entries) {
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry.file));
  let runtime = 0;
  let types = 0;
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const { target, where } = declarationOf(symbol);
    if (target.flags & ts.SymbolFlags.Value) runtime += 1;
    else types += 1;
    const seen = owners.get(symbol.name) ?? new Map();
    seen.set(where, [...(seen.get(where) ?? []), entry.name]);
    owners.set(symbol.name, seen);
  }
  rows.push({ entry: entry.name, runtime, types, total: runtime + types });
}
console.table(rows);
const sum = rows.reduce((a, r) => a + r.total, 0);
console.log(`total names: ${sum}`);
const collisions = [...owners].filter(([, seen]) => seen.size > 1);
for (const [name, seen] of collisions) {
  console.log(
    `collision ${name}: ${[...seen].map(([where, es]) => `${es.join('+')} → ${where}`).join('; ')}`,
  );
}
if (process.argv.includes('--list')) {
  for (const [name, seen] of owners) console.log(`${[...seen.values()].flat().join(',')}\t${name}`);
}
