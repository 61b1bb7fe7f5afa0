import type { LabelRow } from '../calibration/index.js';
import { RewardKitError } from '../core/index.js';
import { sampleLabelValue } from '../store/index.js';
import type { ReadRows } from './calibration-inputs.js';
import { openStoreForReading } from './store-location.js';

/**
 * The labels a person gave a run's samples in the inspector (`rewardkit view --allow-labels`), as
 * calibration's `{id, label}` rows: correct 1, incorrect 0, a score itself. Each is placed as
 * `<run>/<sample>`, the way a labels file's rows are placed by file:line.
 */
export async function readStoreLabelRows(
  storeFlag: string | undefined,
  runId: string,
): Promise<ReadRows<LabelRow>> {
  const store = await openStoreForReading(storeFlag);
  try {
    if (!(await store.getRun(runId))) {
      throw new RewardKitError(
        'RK_USAGE',
        `--labels-from-store ${runId}: no such run in the store; rewardkit runs list shows the runs`,
      );
    }
    const labels = await store.listLabels(runId);
    if (labels.length === 0) {
      throw new RewardKitError(
        'RK_USAGE',
        `--labels-from-store ${runId}: the run has no labels; give some in rewardkit view --allow-labels`,
      );
    }
    return {
      rows: labels.map((l) => ({
        id: l.sample_id,
        label: sampleLabelValue(l),
        place: `${runId}/${l.sample_id}`,
      })),
      problems: [],
    };
  } finally {
    await store.close();
  }
}
