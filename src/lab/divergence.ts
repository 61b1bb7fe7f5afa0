/** A loss event worth reporting: a non-finite loss, or a spike past `spikeFactor` × the best loss so far. */
export interface DivergenceEvent {
  step: number;
  kind: 'nonfinite' | 'spike';
  loss: number;
}

export interface DivergenceState {
  best: number;
  events: DivergenceEvent[];
  diverged: boolean;
}

export const initialDivergenceState = (): DivergenceState => ({
  best: Number.POSITIVE_INFINITY,
  events: [],
  diverged: false,
});

/**
 * Folds one step's loss into the monitor (pure: returns the next state). A non-finite loss is a
 * divergence and ends the run; a spike is recorded with its step and the run goes on. Spikes are
 * only looked for after `warmup` steps, when the best loss means something.
 */
export function observeLoss(
  state: DivergenceState,
  step: number,
  loss: number,
  o: { spikeFactor: number; warmup: number },
): DivergenceState {
  if (!Number.isFinite(loss))
    return { ...state, diverged: true, events: [...state.events, { step, kind: 'nonfinite', loss }] };
  const spike = step >= o.warmup && loss > o.spikeFactor * state.best;
  return {
    best: Math.min(state.best, loss),
    diverged: false,
    events: spike ? [...state.events, { step, kind: 'spike', loss }] : state.events,
  };
}
