// Preload (`node --import <this file>`) that makes the packages named in RK_HIDE_PACKAGES (comma
// separated) unresolvable, as if npm had not installed them: ESM imports through a resolve hook,
// `require`/`createRequire` by wrapping Node's CJS resolver. Tests use it to check what a user
// without an optional package sees, without moving anything out of node_modules.
import Module from 'node:module';

const hidden = (process.env.RK_HIDE_PACKAGES ?? '').split(',').filter(Boolean);
const isHidden = (specifier) => hidden.some((name) => specifier === name || specifier.startsWith(`${name}/`));

Module.register('./resolve-hook.mjs', import.meta.url, { data: { hidden } });

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (isHidden(request)) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};
