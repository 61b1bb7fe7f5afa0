import { useState } from 'react';

export interface Filters {
  sort: string;
  order: string;
  status: string;
  source: string;
  data_source: string;
  min_reward: string;
  max_reward: string;
  q: string;
}

export const NO_FILTERS: Filters = {
  sort: 'position',
  order: 'asc',
  status: '',
  source: '',
  data_source: '',
  min_reward: '',
  max_reward: '',
  q: '',
};

/**
 * The filters as API query parameters, leaving out the empty and default ones: the same text is the
 * API's query and the page's hash query, so a link names only what differs from the plain table.
 */
export function filterQuery(filters: Filters): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(NO_FILTERS) as (keyof Filters)[]) {
    const value = filters[key];
    if (value !== '' && value !== NO_FILTERS[key]) params.set(key, value);
  }
  return params.toString();
}

/** The filters a hash query names (other parameters, such as the scroll place, are not filters). */
export function filtersFromQuery(query: URLSearchParams): Filters {
  const filters = { ...NO_FILTERS };
  for (const key of Object.keys(NO_FILTERS) as (keyof Filters)[]) {
    const value = query.get(key);
    if (value !== null) filters[key] = value;
  }
  return filters;
}

/** Why the filters cannot be asked for (a reward bound that is not a number), or undefined. */
export function filterProblem(filters: Filters): string | undefined {
  for (const [key, label] of [
    ['min_reward', 'reward ≥'],
    ['max_reward', 'reward ≤'],
  ] as const) {
    const value = filters[key].trim();
    if (value !== '' && !Number.isFinite(Number(value)))
      return `${label} must be a number, such as 0.5 (got "${value}")`;
  }
  return undefined;
}

/**
 * The samples table's sort and filters, applied on submit; a bad reward bound is said beside the
 * form and nothing is applied. `dataSources` are offered as choices of the data-source filter,
 * which matches any part of the name.
 */
export function SampleFilters({
  initial,
  sources,
  dataSources,
  onApply,
}: {
  initial: Filters;
  sources: string[];
  dataSources: string[];
  onApply: (f: Filters) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<string | undefined>();
  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });
  return (
    <form
      className="filters"
      onSubmit={(e) => {
        e.preventDefault();
        const found = filterProblem(draft);
        setProblem(found);
        if (found === undefined) onApply(draft);
      }}
    >
      <label>
        search <input id="sample-search" name="q" placeholder="id, response, errors" {...field('q')} />
      </label>
      <label>
        status
        <select name="status" {...field('status')}>
          <option value="">any</option>
          <option value="ok">ok</option>
          <option value="failed">failed</option>
        </select>
      </label>
      <label>
        source
        <select name="source" {...field('source')}>
          <option value="">any</option>
          {sources.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        data source <input name="data_source" size={10} list="data-sources" {...field('data_source')} />
        <datalist id="data-sources">
          {dataSources.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
      </label>
      <label>
        reward ≥ <input name="min_reward" size={5} inputMode="decimal" {...field('min_reward')} />
      </label>
      <label>
        ≤ <input name="max_reward" size={5} inputMode="decimal" {...field('max_reward')} />
      </label>
      <label>
        sort
        <select name="sort" {...field('sort')}>
          <option value="position">input order</option>
          <option value="reward">reward</option>
          <option value="sample_id">sample id</option>
          <option value="total_ms">time (ms)</option>
        </select>
        <select name="order" {...field('order')}>
          <option value="asc">ascending</option>
          <option value="desc">descending</option>
        </select>
      </label>
      <button type="submit">Apply</button>
      {problem && (
        <span className="error" role="alert" id="filter-problem">
          {problem}
        </span>
      )}
    </form>
  );
}
