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

/** The filters as API query parameters, leaving out the empty ones. */
export function filterQuery(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== '') params.set(key, value);
  return params.toString();
}

/** The samples table's sort and filters, applied on submit. */
export function SampleFilters({ sources, onApply }: { sources: string[]; onApply: (f: Filters) => void }) {
  const [draft, setDraft] = useState(NO_FILTERS);
  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });
  return (
    <form
      className="filters"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
    >
      <label>
        search <input name="q" placeholder="id, response, errors" {...field('q')} />
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
        data source <input name="data_source" size={10} {...field('data_source')} />
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
          <option value="total_ms">time</option>
        </select>
        <select name="order" {...field('order')}>
          <option value="asc">ascending</option>
          <option value="desc">descending</option>
        </select>
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}
