export type { AgreementStatistic } from './agreement-statistic.js';
export { cohenKappa, type KappaWeights, type RatingPair, weightedCohenKappa } from './cohen-kappa.js';
export { categoryCounts, fleissKappa } from './fleiss-kappa.js';
export { type AlphaLevel, type AlphaUnit, krippendorffAlpha } from './krippendorff-alpha.js';
export { type PanelAgreement, type PanelRatings, panelAgreement } from './panel-agreement.js';
