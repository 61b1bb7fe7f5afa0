import { ComparePage } from './compare-page';
import { CompareSamplePage } from './compare-sample-page';
import { RunPage } from './run-page';
import { RunsPage } from './runs-page';
import { SamplePage } from './sample-page';
import { href, useHashRoute } from './use-hash-route';

export function App() {
  const route = useHashRoute();
  const [page, a, b, c, d] = route;
  return (
    <>
      <header className="top">
        <a href={href()} className="brand">
          rewardkit view
        </a>
        <span className="subtitle">read-only inspector of the store</span>
      </header>
      <main>
        {page === 'runs' && a !== undefined && b === 'samples' && c !== undefined ? (
          <SamplePage key={`${a}/${c}`} runId={a} sampleId={c} />
        ) : page === 'runs' && a !== undefined ? (
          <RunPage runId={a} />
        ) : page === 'compare' && a !== undefined && b !== undefined && c === 'samples' && d !== undefined ? (
          <CompareSamplePage a={a} b={b} sampleId={d} />
        ) : page === 'compare' && a !== undefined && b !== undefined ? (
          <ComparePage a={a} b={b} />
        ) : (
          <RunsPage />
        )}
      </main>
    </>
  );
}
