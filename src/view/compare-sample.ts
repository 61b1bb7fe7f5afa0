import type { Store } from '../store/index.js';
import { type SampleDetail, sampleDetail } from './sample-detail.js';

/** One sample id in two runs, as the compare page sets them side by side. */
export interface ComparedSampleDetail {
  readonly sample_id: string;
  readonly a: SampleDetail;
  readonly b: SampleDetail;
}

/** Both runs' detail of one sample; a 404 names the run that lacks it. */
export async function compareSample(
  store: Store,
  runA: string,
  runB: string,
  sampleId: string,
): Promise<ComparedSampleDetail> {
  const [a, b] = await Promise.all([
    sampleDetail(store, runA, sampleId),
    sampleDetail(store, runB, sampleId),
  ]);
  return { sample_id: sampleId, a, b };
}
