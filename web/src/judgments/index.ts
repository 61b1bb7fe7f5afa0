export { JudgmentFallback } from './judgment-fallback';
export { judgmentView } from './judgment-view';
