import type { QaPatchOutcome, QaPatchReport } from '../../../shared/qa.js';
import { formatCount, plural } from '../../lib/format.js';
import { pct } from './score.js';
import { TableHead } from '../Table/TableHead.js';

const OUTCOME: Record<QaPatchOutcome, string> = {
  fetched: 'fetched',
  'archived-before': 'archived already',
  skipped: 'not fetched',
  failed: 'failed',
  queued: 'still queued',
};

/** What a patch did: each missing resource and what became of it, then the pages analysed again, before and after. */
export function PatchReport({ report }: { report: QaPatchReport }) {
  const fetched = report.resources.filter((r) => r.outcome === 'fetched').length;
  return (
    <div className="qa-patch" data-testid="qa-patch-report">
      <h3>Patch of capture {report.capture}</h3>
      <p data-testid="qa-patch-summary">
        {formatCount(fetched)} of {plural(report.resources.length, 'missing resource')} fetched; {plural(report.pages.length, 'page')} analysed again.
      </p>
      <table className="report-table">
        <caption className="sr-only">Missing resources and what the patch did with them</caption>
        <TableHead columns={[{ label: 'Outcome' }, { label: 'Type' }, { label: 'Resource' }, { label: 'Why' }]} />
        <tbody>
          {report.resources.map((r) => (
            <tr key={r.url} data-testid="qa-patch-resource" data-outcome={r.outcome}>
              <td>{OUTCOME[r.outcome]}</td>
              <td>{r.type}</td>
              <td className="qa-patch-url">{r.url}</td>
              <td>{r.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.pages.length > 0 && (
        <table className="report-table">
          <caption className="sr-only">Pages analysed again, before and after the patch</caption>
          <TableHead columns={[{ label: 'Page' }, { label: 'Text', num: true }, { label: 'Screenshot', num: true }, { label: 'Missing', num: true }]} />
          <tbody>
            {report.pages.map((p) => (
              <tr key={p.url} data-testid="qa-patch-page">
                <td className="qa-patch-url">{p.url}</td>
                <td className="num">
                  {pct(p.before.textMatch)} → {pct(p.after.textMatch)}
                </td>
                <td className="num">
                  {pct(p.before.screenshotMatch)} → {pct(p.after.screenshotMatch)}
                </td>
                <td className="num">
                  {formatCount(p.before.missing)} → {formatCount(p.after.missing)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
