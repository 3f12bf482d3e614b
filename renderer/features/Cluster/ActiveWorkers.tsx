import { useState } from 'react';
import { useClusters } from '../../stores/clusters.js';

/** How many of the live workers lease (`harvest control --workers`): the first N by id, or every one. */
export function ActiveWorkers({ id, activeWorkers, live }: { id: string; activeWorkers: number | null; live: number }) {
  const [n, setN] = useState(activeWorkers === null ? '' : String(activeWorkers));
  const wanted = Number(n);
  const valid = n !== '' && Number.isInteger(wanted) && wanted >= 1;
  const set = (value: number | null) => void useClusters.getState().control(id, { activeWorkers: value });
  return (
    <form
      className="live-control"
      aria-label="Workers that lease"
      data-testid="cluster-active-workers"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) set(wanted);
      }}
    >
      <span className="muted">{activeWorkers === null ? 'Every live worker leases.' : `The first ${activeWorkers} live worker${activeWorkers === 1 ? '' : 's'} by name lease; the others stand by.`}</span>
      <label>
        Workers leasing <input type="number" min={1} value={n} placeholder={String(live)} onChange={(e) => setN(e.target.value)} data-testid="cluster-active-count" />
      </label>
      <button type="submit" disabled={!valid || wanted === activeWorkers} data-testid="cluster-active-apply">
        Apply
      </button>
      {activeWorkers !== null && (
        <button type="button" onClick={() => set(null)} data-testid="cluster-active-all">
          Let every worker lease
        </button>
      )}
    </form>
  );
}
