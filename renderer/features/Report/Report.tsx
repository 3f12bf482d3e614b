import { useEffect, useState } from 'react';
import type { QaReport } from '../../../shared/report.js';
import { api } from '../../api/index.js';
import { formatBytes, formatCount, formatDate, formatDuration, formatLimits } from '../../lib/format.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { reportDownloadPath } from '../../../shared/webRoutes.js';
import { useArchives } from '../../stores/archives.js';
import { useNav } from '../../stores/nav.js';
import { ArchivePicker } from '../ArchivePicker/index.js';
import { PageAnalysis } from '../PageAnalysis/index.js';
import { thumbnailUrl } from '../Viewer/frameLocation.js';
import { Examples, ReportTable } from './ReportTable.js';

/**
 * An archive's QA report, as `harvest report` writes it for the collection record: the same
 * figures (its totals are `harvest stats` itself), drawn from the same host call.
 */
export function Report() {
  const list = useArchives((s) => s.list);
  const navJob = useNav((s) => s.reportJobId ?? s.viewer?.jobId ?? null);
  const [jobId, setJobId] = useState<string | null>(navJob ?? list[0]?.jobId ?? null);
  const [report, setReport] = useState<QaReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [serial, setSerial] = useState(0);
  const isWeb = useApp(selectIsWebHost);

  useEffect(() => {
    if (jobId === null && list[0]) setJobId(list[0].jobId);
  }, [list, jobId]);

  useEffect(() => {
    if (jobId === null) return;
    let live = true;
    setReport(null);
    setError(null);
    void api()
      ['archives.report']({ id: jobId })
      .then((r) => {
        if (!live) return;
        if (r.ok) setReport(r.value);
        else setError(r.error.message);
      });
    return () => {
      live = false;
    };
  }, [jobId, serial]);

  return (
    <div className="report-screen" data-testid="report">
      <div className="report-toolbar">
        <ArchivePicker value={jobId} onChange={setJobId} testId="report-archive" />
        <button onClick={() => setSerial((n) => n + 1)} disabled={jobId === null} data-testid="report-refresh">
          Refresh
        </button>
        {report && (
          <span className="muted small">
            Generated {formatDate(report.generatedAt)} by {report.generator}. The same report as a file:{' '}
            {isWeb && jobId !== null ? (
              <a className="button" href={reportDownloadPath(jobId)} download data-testid="report-download">
                Download (HTML)
              </a>
            ) : (
              <code>harvest report &lt;archive-dir&gt; --format html --out report.html</code>
            )}
          </span>
        )}
      </div>
      {jobId !== null && <PageAnalysis key={jobId} jobId={jobId} />}
      {jobId === null && <p className="empty-state">No archives yet: a job&apos;s archive appears in the Library once it runs.</p>}
      {error && (
        <p className="error-banner" role="alert" data-testid="report-error">
          {error}
        </p>
      )}
      {jobId !== null && !report && !error && <p className="muted">Reading the catalogue and hashing the WARC files…</p>}
      {report && jobId !== null && <ReportBody report={report} jobId={jobId} />}
    </div>
  );
}

function ReportBody({ report: r, jobId }: { report: QaReport; jobId: string }) {
  const viewerBase = useApp((s) => s.info?.viewerBase ?? null);
  const s = r.stats;
  const limits = formatLimits(r.scope.limits);
  const scope = [r.scope.mode, r.scope.include.length > 0 && `include ${r.scope.include.join(', ')}`, r.scope.exclude.length > 0 && `exclude ${r.scope.exclude.join(', ')}`]
    .filter(Boolean)
    .join('; ');
  return (
    <div className="report-body">
      <h2 data-testid="report-name">QA report: {s.name}</h2>
      <ReportTable
        title="Harvest"
        testId="report-harvest"
        head={['Item', 'Value']}
        empty=""
        rows={[
          ['Seeds', <Examples urls={s.seeds} />],
          ['Scope', scope],
          ['Off-site requisites', r.scope.offsiteRequisites ? 'fetched' : 'not fetched'],
          ['Private networks allowed', r.scope.allowNetworks.length > 0 ? r.scope.allowNetworks.join(', ') : "none (only the seeds' own hosts)"],
          ['Limits', limits],
          ['State', s.state],
          ['Started', formatDate(r.dates.startedAt)],
          ['Finished', formatDate(r.dates.finishedAt)],
          ['Crawl time', formatDuration(s.durationMs)],
          ['robots.txt', s.robotsPolicy],
          ['Search index', r.search.indexed ? `${formatCount(r.search.urls)} documents (${formatCount(r.search.texts)} distinct texts)` : 'none: run harvest reindex'],
        ]}
      />
      <ReportTable
        title="Description (Dublin Core)"
        testId="report-metadata"
        head={['Element', 'Value']}
        empty="No descriptive metadata: add it with Metadata in the Library."
        rows={(r.metadata ?? []).map(([label, value]) => [label, value])}
      />
      <ReportTable
        title="Totals by state"
        testId="report-states"
        head={['State', 'URLs']}
        empty=""
        rows={[
          ...Object.entries(s.byState).map(([k, v]) => [k, <span data-testid={`report-state-${k}`}>{formatCount(v)}</span>]),
          ['discovered', formatCount(s.counts.discovered)],
          ['bytes fetched', formatBytes(s.counts.bytes)],
        ]}
      />
      <ReportTable
        title="Archived by MIME type"
        testId="report-mime"
        head={['MIME type', 'Files', 'Bytes']}
        empty="Nothing archived."
        rows={r.byMimeType.map((m) => [m.mimeType, formatCount(m.count), formatBytes(m.bytes)])}
      />
      <ReportTable
        title="Skipped, by reason"
        testId="report-skipped"
        head={['Reason', 'URLs', 'Examples']}
        empty="Nothing skipped."
        rows={r.skipped.map((x) => [x.reason, formatCount(x.count), <Examples urls={x.examples} />])}
      />
      <ReportTable
        title="Crawler-trap guards hit"
        testId="report-traps"
        head={['Guard', 'URLs', 'Examples']}
        empty="No trap guard was hit."
        rows={r.trapGuards.map((x) => [x.guard, formatCount(x.count), <Examples urls={x.examples} />])}
      />
      <ReportTable
        title="HTTP errors"
        testId="report-http-errors"
        head={['Status', 'URLs', 'Examples']}
        empty="No HTTP errors."
        rows={r.httpErrors.map((x) => [String(x.status), formatCount(x.count), <Examples urls={x.examples} />])}
      />
      <ReportTable
        title="Failures"
        testId="report-failures"
        head={['Reason', 'URLs', 'Examples']}
        empty="No failures."
        rows={r.failures.map((x) => [x.reason, formatCount(x.count), <Examples urls={x.examples} />])}
      />
      <ReportTable
        title="robots.txt"
        note={`Policy: ${r.robots.policy}.`}
        testId="report-robots"
        head={['Site', 'Answer', 'Fetched']}
        empty="No robots.txt fetched."
        rows={r.robots.sites.map((x) => [x.site, x.error ?? (x.httpStatus === null ? '–' : `HTTP ${x.httpStatus}`), formatDate(x.fetchedAt)])}
      />
      <ReportTable
        title="Largest files"
        testId="report-largest"
        head={['URL', 'Type', 'Size']}
        empty="No files."
        rows={r.largestFiles.map((x) => [x.url, x.contentType ?? '–', formatBytes(x.bytes)])}
      />
      <ReportTable
        title="Links left absolute in the offline copy"
        note="References to what was not archived keep their original address, so they still work online."
        testId="report-absolute"
        head={['Why', 'References', 'Examples (page → target)']}
        empty="Every reference points into the offline copy."
        rows={r.absoluteLinks.map((x) => [x.reason, formatCount(x.count), <Examples urls={x.examples.map((e) => `${e.from} → ${e.to}`)} />])}
      />
      <ReportTable
        title="Home page thumbnails"
        testId="report-thumbnails"
        head={['Seed', 'Thumbnail']}
        empty="No thumbnails: crawl with rendering on, or run harvest thumbnails on the archive."
        rows={r.thumbnails.map((t) => [
          t.url,
          viewerBase ? <img className="thumb" src={thumbnailUrl(viewerBase, jobId, mirrorPathOfThumbnail(t.image))} alt={`Thumbnail of ${t.url}`} /> : t.image,
        ])}
      />
      <ReportTable
        title="Checksums"
        note={`${formatCount(r.checksums.payloadDigests)} distinct payload digests recorded (${r.checksums.algorithm}).`}
        testId="report-checksums"
        head={['WARC file', 'Size', 'SHA-256']}
        empty="No WARC files (crawled with --no-warc)."
        rows={r.checksums.warcFiles.map((w) => [w.name, formatBytes(w.bytes), <code className="digest">{w.sha256}</code>])}
      />
    </div>
  );
}

/** A report's thumbnail path (`thumbnails/<mirror path>.png`, relative to the archive) as the mirror path it pictures. */
function mirrorPathOfThumbnail(image: string): string {
  return image.replace(/^thumbnails\//, '').replace(/\.png$/, '');
}
