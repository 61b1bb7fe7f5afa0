import { importOptional } from '../core/index.js';

type NodeLlamaCpp = typeof import('node-llama-cpp');

/**
 * The optional `node-llama-cpp` package, imported only when a local model is used so that
 * rewardkit installs and runs without it. A missing package is an error that says how to add it.
 */
export function loadNodeLlamaCpp(
  importer: () => Promise<NodeLlamaCpp> = () => import('node-llama-cpp'),
): Promise<NodeLlamaCpp> {
  return importOptional('gguf', importer);
}
