/**
 * The lab's module, imported only by the lab's commands. Its entry checks the lab's optional
 * packages (tfjs and the report renderer, vega and vega-lite) before loading anything that needs
 * them, so a missing one is the lab's one install line, said before a run rather than after it.
 */
export const loadLab = () => import('../../lab/index.js');
