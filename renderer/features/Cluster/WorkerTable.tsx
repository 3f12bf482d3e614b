import type { WorkerStatus } from '../../../shared/cluster.js';
import { formatBytes, formatCount, formatRate } from '../../lib/format.js';
import { TableHead } from '../Table/TableHead.js';

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
      <TableHead
        columns={[
          { label: 'Worker' },
          { label: 'Host' },
          { label: 'State' },
          { label: 'URLs/s', num: true, title: 'URLs committed per second over the last 30 s' },
          { label: 'Batch', num: true, title: 'URLs in its last batch' },
          { label: 'Fetch ms', num: true, title: 'Its mean fetch time, which sets its batch size' },
          { label: 'Sites', title: 'Sites it holds a batch of now' },
          { label: 'Fetched', num: true },
          { label: 'Failures', num: true },
          { label: 'Received', num: true },
          { label: 'Returned', num: true, title: 'URLs taken back from it when it stopped heartbeating' },
        ]}
      />
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
