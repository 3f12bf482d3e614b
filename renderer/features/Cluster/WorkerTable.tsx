import type { WorkerStatus } from '../../../shared/cluster.js';
import { formatBytes, formatCount, formatRate } from '../../lib/format.js';

/** What a worker is doing, in the words of `harvest cluster status`; live ones are "alive". */
function stateOf(w: WorkerStatus): string {
  if (w.state === 'live') return w.standby ? 'standby' : 'alive';
  return `${w.state} (silent ${Math.round(w.silentS)} s)`;
}

/** One row per worker that has joined the harvest, as the database last reported it. */
export function WorkerTable({ workers }: { workers: WorkerStatus[] }) {
  if (workers.length === 0) {
    return (
      <p className="empty-state" data-testid="cluster-no-workers">
        No worker has joined yet. Start one on each machine: harvest worker --db &lt;url&gt; --store &lt;dir&gt;
      </p>
    );
  }
  return (
    <table className="report-table worker-table" data-testid="cluster-workers">
      <caption className="sr-only">Workers of this cluster harvest</caption>
      <thead>
        <tr>
          <th>Worker</th>
          <th>Host</th>
          <th>State</th>
          <th className="num" title="URLs committed per second over the last 30 s">URLs/s</th>
          <th className="num" title="URLs in its last batch">Batch</th>
          <th className="num" title="Its mean fetch time, which sets its batch size">Fetch ms</th>
          <th title="Sites it holds a batch of now">Sites</th>
          <th className="num">Fetched</th>
          <th className="num">Failures</th>
          <th className="num">Received</th>
          <th className="num" title="URLs taken back from it when it stopped heartbeating">Returned</th>
        </tr>
      </thead>
      <tbody>
        {workers.map((w) => (
          <tr key={w.id} data-testid="cluster-worker" data-worker={w.id}>
            <td>{w.id}</td>
            <td>{w.host}</td>
            <td>
              <span className={`status status-worker-${w.state === 'live' ? (w.standby ? 'standby' : 'alive') : w.state}`} data-testid="cluster-worker-state">
                {stateOf(w)}
              </span>
            </td>
            <td className="num" data-testid="cluster-worker-rate">
              {formatRate(w.rate)}
            </td>
            <td className="num">{w.batchSize}</td>
            <td className="num">{w.meanFetchMs ?? '—'}</td>
            <td title={w.sites.join('\n')} data-testid="cluster-worker-sites">
              {w.sites.length === 0 ? '—' : w.sites.map((s) => s.replace(/^https?:\/\//, '')).join(', ')}
            </td>
            <td className="num" data-testid="cluster-worker-fetched">
              {formatCount(w.fetched)}
            </td>
            <td className="num">{formatCount(w.failures)}</td>
            <td className="num">{formatBytes(w.bytes)}</td>
            <td className="num">{formatCount(w.returned)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
