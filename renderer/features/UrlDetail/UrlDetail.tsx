import { useEffect, useState } from 'react';
import type { UrlDetail } from '../../../shared/urlDetail.js';
import { useDialog } from '../../lib/dialog.js';
import { formatBytes, formatDate } from '../../lib/format.js';
import { SKIP_LABELS, STATE_LABELS } from '../../lib/vocabulary.js';
import { commandValue } from '../../stores/command.js';
import { useNav } from '../../stores/nav.js';

interface Props {
  jobId: string;
  url: string;
  onClose(): void;
  /** Shows another URL's detail (the page this one was linked from). */
  onOpenUrl(url: string): void;
}

/** Everything known of one URL of the log: outcome, error, timings, where it was found, its file and WARC record. */
export function UrlDetailPanel({ jobId, url, onClose, onOpenUrl }: Props) {
  const [detail, setDetail] = useState<UrlDetail | null | undefined>(undefined);
  // Not modal: the log stays usable beside it. It takes the focus, Escape closes it, and the focus returns to the row.
  const panel = useDialog<HTMLDivElement>(onClose, { modal: false });
  useEffect(() => {
    let live = true;
    setDetail(undefined);
    void commandValue('jobs.urlDetail', { id: jobId, url }).then((d) => live && setDetail(d));
    return () => {
      live = false;
    };
  }, [jobId, url]);

  return (
    <div ref={panel} className="url-detail-panel" role="dialog" aria-labelledby="url-detail-title" tabIndex={-1} data-testid="url-detail">
      <header className="url-detail-head">
        <h3 id="url-detail-title">URL detail</h3>
        <button data-autofocus onClick={onClose} aria-label="Close URL detail" title="Close (Esc)" data-testid="url-detail-close">
          ×
        </button>
      </header>
      <p className="url-detail-url" data-testid="url-detail-url">
        {url}
      </p>
      {detail === undefined ? (
        <p className="muted">Loading…</p>
      ) : detail === null ? (
        <p className="muted">This URL is not in the catalogue.</p>
      ) : (
        <DetailBody detail={detail} jobId={jobId} onOpenUrl={onOpenUrl} />
      )}
    </div>
  );
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms.toLocaleString()} ms` : `${(ms / 1000).toLocaleString(undefined, { maximumFractionDigits: 2 })} s`;
}

function DetailBody({ detail, jobId, onOpenUrl }: { detail: UrlDetail; jobId: string; onOpenUrl(url: string): void }) {
  const r = detail.record;
  const w = detail.warc;
  const isPage = r.state === 'archived' && r.localPath !== null && /html/i.test(r.contentType ?? '');
  return (
    <>
      <p>
        <span className={`outcome outcome-${r.state}`} data-testid="url-detail-state">
          {STATE_LABELS[r.state]}
        </span>
        {r.httpStatus !== null && (
          <span className="muted" data-testid="url-detail-status">
            {' '}
            HTTP {w?.httpStatusLine?.replace(/^HTTP\/[\d.]+ /, '') ?? r.httpStatus}
          </span>
        )}
      </p>
      {r.error && (
        <p className="error-box" data-testid="url-detail-error">
          {r.error}
        </p>
      )}
      {r.skipReason && (
        <p data-testid="url-detail-skip">
          Not fetched: {SKIP_LABELS[r.skipReason]}
          {detail.robots && robotsText(detail.robots) && <span className="error-box block" data-testid="url-detail-robots">{robotsText(detail.robots)}</span>}
        </p>
      )}
      <dl className="detail-list">
        {detail.timing ? (
          <>
            <dt>Requested</dt>
            <dd>{formatDate(detail.timing.requestedAt)}</dd>
            <dt>Response time</dt>
            <dd data-testid="url-detail-timing" title="From sending the request: until the response headers arrived, and until its last byte">
              headers after {formatMs(detail.timing.headersMs)}, complete after {formatMs(detail.timing.durationMs)}
            </dd>
          </>
        ) : (
          w?.date && (
            <>
              <dt>Requested</dt>
              <dd title="WARC-Date: when the request started (to the second)">{formatDate(w.date)}</dd>
            </>
          )
        )}
        <dt>Outcome recorded</dt>
        <dd data-testid="url-detail-fetched">{detail.fetchedAt ? formatDate(detail.fetchedAt) : r.state === 'queued' ? 'not yet: still queued' : 'never fetched'}</dd>
        {r.contentType && (
          <>
            <dt>Type</dt>
            <dd>{r.contentType}</dd>
          </>
        )}
        {r.bytes !== null && (
          <>
            <dt>Size</dt>
            <dd>{formatBytes(r.bytes)}</dd>
          </>
        )}
        <dt>Found</dt>
        <dd>
          {detail.via === 'seed' ? 'it is a seed' : detail.via ? `as ${describeVia(detail.via)}` : '—'}, depth {r.depth}
        </dd>
        {detail.linkedFrom && (
          <>
            <dt>Linked from</dt>
            <dd data-testid="url-detail-linked-from">
              <button className="link url-link" onClick={() => onOpenUrl(detail.linkedFrom!.url)} title="Show this page's detail">
                {detail.linkedFrom.url}
              </button>
              {detail.linkedFrom.text && <span className="muted"> (“{detail.linkedFrom.text}”)</span>}
            </dd>
          </>
        )}
        {r.redirectTo && (
          <>
            <dt>Redirects to</dt>
            <dd>
              <button className="link url-link" onClick={() => onOpenUrl(r.redirectTo!)}>
                {r.redirectTo}
              </button>
            </dd>
          </>
        )}
        <dt>Local file</dt>
        <dd data-testid="url-detail-local">
          {r.localPath ? (
            <>
              <code>mirror/{r.localPath}</code>
              {isPage && (
                <>
                  {' '}
                  <button className="link" onClick={() => useNav.getState().openViewer(jobId, r.localPath!)} data-testid="url-detail-view">
                    View
                  </button>
                </>
              )}
            </>
          ) : (
            <span className="muted">none (only archived URLs are saved)</span>
          )}
        </dd>
        <dt>WARC record</dt>
        <dd data-testid="url-detail-warc">
          {w ? (
            <>
              <code>
                warc/{w.file} @ {w.offset.toLocaleString('en-US')}
              </code>{' '}
              <span className="muted">
                ({w.type}, {formatBytes(w.length)} compressed)
              </span>
              {w.refersToUrl && <div className="muted small">Same payload as {w.refersToUrl}{w.refersToDate ? `, ${formatDate(w.refersToDate)}` : ''}</div>}
              {w.recordId && <div className="muted small">{w.recordId}</div>}
            </>
          ) : (
            <span className="muted">{detail.warcNote ?? 'none'}</span>
          )}
        </dd>
      </dl>
      {w && w.headers.length > 0 && (
        <details className="headers" open>
          <summary>Response headers ({w.headers.length})</summary>
          <table data-testid="url-detail-headers">
            <tbody>
              {w.headers.map(([name, value], i) => (
                <tr key={`${name}-${i}`}>
                  <th scope="row">{name}</th>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </>
  );
}

const VIA: Record<string, string> = {
  a: 'a link',
  area: 'an image-map link',
  redirect: 'a redirect target',
  link: 'a linked resource (stylesheet, icon)',
  img: 'an image',
  srcset: 'an image (srcset)',
  'picture-source': 'an image (picture source)',
  script: 'a script',
  iframe: 'an embedded frame',
  frame: 'a frame',
  media: 'audio or video',
  track: 'a text track',
  poster: 'a video poster',
  object: 'an embedded object',
  embed: 'an embedded object',
  'meta-refresh': 'a meta refresh',
  'style-attr': 'a style attribute reference',
  'style-block': 'a style block reference',
  'css-url': 'a stylesheet url()',
  'css-import': 'a stylesheet @import',
  lazy: 'a lazy-loaded image',
};

function describeVia(via: string): string {
  return VIA[via] ?? `a reference (${via})`;
}

/** Why robots.txt kept a site out, when it was not a rule but a failure to read the file. */
export function robotsText(r: { httpStatus: number | null; error: string | null }): string | null {
  if (r.error) return `The site's robots.txt could not be fetched (${r.error}), so the crawl kept out of the site, as RFC 9309 asks.`;
  if (r.httpStatus !== null && r.httpStatus >= 500) return `The site's robots.txt answered HTTP ${r.httpStatus}, so the crawl kept out of the site, as RFC 9309 asks.`;
  return null;
}
