// The ESM half of register.mjs: a resolve hook that fails for hidden packages the way Node does.
let hidden = [];

export function initialize(data) {
  hidden = data.hidden;
}

export function resolve(specifier, context, next) {
  if (hidden.some((name) => specifier === name || specifier.startsWith(`${name}/`))) {
    const error = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
