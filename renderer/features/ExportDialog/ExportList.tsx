import { useEffect } from 'react';
import { formatBytes, formatDate } from '../../lib/format.js';
import { useExports } from '../../stores/exports.js';
import { TableHead } from '../Table/TableHead.js';

const FORMAT_NAMES = { wacz: 'WACZ', warc: 'WARC', zip: 'ZIP', bagit: 'BagIt bag' } as const;

/** An archive's finished exports: format, date, size, fixity, with Verify and (in a browser) Download. */
export function ExportList({ jobId }: { jobId: string }) {
  const records = useExports((s) => s.records[jobId]);
  const verifying = useExports((s) => s.verifying);
  useEffect(() => {
    void useExports.getState().loadRecords(jobId);
  }, [jobId]);
  if (!records) return null;
  if (records.length === 0) return <p className="muted small" data-testid="export-list-empty">No exports of this archive yet.</p>;
  return (
    <table className="export-list" data-testid="export-list">
      <caption className="sr-only">Exports of this archive</caption>
      <TableHead
        columns={[
          { label: 'Format' },
          { label: 'Made' },
          { label: 'Size', num: true },
          { label: 'Verified' },
          { label: 'Actions', hidden: true },
        ]}
      />
      <tbody>
        {records.map((r) => (
          <tr key={r.exportId} data-testid="export-record" data-export-id={r.exportId}>
            <td title={r.outPath}>{FORMAT_NAMES[r.format]}</td>
            <td>{formatDate(r.finishedAt)}</td>
            <td className="num">{formatBytes(r.bytes)}</td>
            <td data-testid="export-verified">
              {!r.present ? (
                <span className="bad">missing</span>
              ) : r.verified === null ? (
                <span className="muted">not yet</span>
              ) : (
                <span className={r.verified.ok ? 'good' : 'bad'} title={`${r.verified.detail} (${formatDate(r.verified.at)})`}>
                  {r.verified.ok ? '✓ valid' : '✗ invalid'}
                </span>
              )}
            </td>
            <td>
              <div className="row-actions">
              <button onClick={() => void useExports.getState().verify(r.exportId, jobId)} disabled={!r.present || verifying[r.exportId]} data-testid="export-verify">
                {verifying[r.exportId] ? 'Verifying…' : 'Verify'}
              </button>
              {r.downloadPath && (
                <a className="button" href={r.downloadPath} download data-testid="export-record-download">
                  Download
                </a>
              )}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
