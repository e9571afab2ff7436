import { useEffect, useState } from 'react';
import { JOB_SEARCH_MAX_CHARS } from '../api/contract';
import { useApp } from '../store';
import { JOB_ORDERS, type JobOrder } from '../store/job-order';

/** Typing pauses this long before the gateway is asked: one request per word, not per key. */
const SEARCH_DELAY_MS = 250;

/** Search (titles and text, on the gateway) and order of the job list. */
export function JobListTools() {
  const search = useApp((s) => s.jobSearch);
  const order = useApp((s) => s.jobOrder);
  const setJobQuery = useApp((s) => s.setJobQuery);
  const [typed, setTyped] = useState(search);

  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => void setJobQuery({ search: typed }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search, setJobQuery]);

  return (
    <div className="job-tools" role="search" aria-label="Jobs">
      <input
        type="search"
        aria-label="Search jobs"
        placeholder="Search titles and text"
        maxLength={JOB_SEARCH_MAX_CHARS}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <select aria-label="Sort jobs" value={order} onChange={(e) => void setJobQuery({ order: e.target.value as JobOrder })}>
        {Object.entries(JOB_ORDERS).map(([id, { label }]) => (
          <option key={id} value={id}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
