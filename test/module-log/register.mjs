// Preload (`node --import <this file>`) that appends every module the process resolves, one URL or
// path a line, to the file named by RK_MODULE_LOG: ESM imports through a resolve hook, `require`
// and `createRequire` by wrapping Node's CJS resolver. Tests use it to assert what an import loads.
import { appendFileSync } from 'node:fs';
import Module from 'node:module';

const log = process.env.RK_MODULE_LOG;
if (!log) throw new Error('RK_MODULE_LOG names the file to log resolved modules to');

Module.register('./resolve-hook.mjs', import.meta.url, { data: { log } });

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const resolved = resolveFilename.call(this, request, ...rest);
  appendFileSync(log, `${resolved}\n`);
  return resolved;
};
