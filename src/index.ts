/**
 * rewardkit's library surface: core types, the verifiers, reward specs and their evaluator, the
 * file runner and the store. The CLI (`rewardkit`) is built on exactly these exports.
 */
export * from './bench/index.js';
export * from './core/index.js';
export * from './dataset/index.js';
export * from './judges/index.js';
export * from './llm/index.js';
export * from './retrieval/index.js';
export * from './rl/index.js';
export * from './runner/index.js';
export * from './selfplay/index.js';
export * from './server/index.js';
export * from './spec/index.js';
export * from './store/index.js';
export * from './verify/code/index.js';
export * from './verify/format/index.js';
export * from './verify/ifeval/index.js';
export * from './verify/math/index.js';
export * from './verify/reference/index.js';
