import { importOptional } from '../../core/index.js';

/**
 * The lab's module, imported only by the lab's commands: it imports tfjs, an optional package, so
 * a missing one is the lab's one install line instead of a module-resolution stack. The report
 * renderer (vega, vega-lite) is used only once training is done, so it is resolved here too: a
 * missing renderer is said before the run, not after it.
 */
export const loadLab = () =>
  importOptional('lab', () => {
    import.meta.resolve('vega');
    import.meta.resolve('vega-lite');
    return import('../../lab/index.js');
  });
