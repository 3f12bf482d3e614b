import { useEffect, useState } from 'react';
import type { UrlDetail } from '../../../shared/urlDetail.js';
import { formatDate } from '../../lib/format.js';
import { SKIP_LABELS } from '../../lib/vocabulary.js';
import { command, commandValue } from '../../stores/command.js';
import { isEditable, isRecorded, selectJob, useJobs } from '../../stores/jobs.js';
import { useNav } from '../../stores/nav.js';
import { useToasts } from '../../stores/toasts.js';
import { robotsText } from '../UrlDetail/index.js';

/** Viewer history entries for the not-in-archive page: this prefix and the original URL (mirror paths never start so). */
export const MISSING_PREFIX = 'missing:';
export const isMissing = (entry: string): boolean => entry.startsWith(MISSING_PREFIX);

/** Redirects followed from a typed or clicked URL to the file that holds it. */
const MAX_REDIRECTS = 5;

/** The mirror path of an original URL's archived copy, following redirects; null when not archived. */
export async function archivedPathOf(jobId: string, url: string): Promise<string | null> {
  let at = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const d = await commandValue('jobs.urlDetail', { id: jobId, url: at });
    if (!d) return null;
    if (d.record.state === 'archived' && d.record.localPath) return d.record.localPath;
    if (d.record.state !== 'redirect' || !d.record.redirectTo) return null;
    at = d.record.redirectTo;
  }
  return null;
}

const SKIP_WHY: Partial<Record<string, string>> = {
  scope: 'It lies outside the job’s scope, so the crawl recorded it without fetching it.',
  robots: 'The site’s robots.txt asks crawlers to keep out of it, and the job obeys robots.txt.',
};

/** What the viewer shows for a link to something the archive does not hold: the URL, why, and a way to add it. */
export function NotInArchive({ jobId, url, onOpenUrl }: { jobId: string; url: string; onOpenUrl(url: string): void }) {
  const job = useJobs(selectJob(jobId));
  const [detail, setDetail] = useState<UrlDetail | null | undefined>(undefined);
  const [added, setAdded] = useState(false);
  useEffect(() => {
    let live = true;
    setDetail(undefined);
    setAdded(false);
    void commandValue('jobs.urlDetail', { id: jobId, url }).then((d) => live && setDetail(d));
    return () => {
      live = false;
    };
  }, [jobId, url]);

  const r = detail?.record;
  const why =
    detail === undefined
      ? 'Looking it up…'
      : detail === null || !r
        ? 'The crawl never met this address: no page it fetched linked to it (or a script made the link).'
        : r.state === 'skipped'
          ? `Skipped: ${r.skipReason ? SKIP_LABELS[r.skipReason] : 'no reason recorded'}. ${(detail.robots && robotsText(detail.robots)) ?? (r.skipReason && SKIP_WHY[r.skipReason]) ?? 'A limit or crawler-trap guard of the job stopped it.'}`
          : r.state === 'failed'
            ? `Fetching it failed: ${r.error ?? 'no reason recorded'}.`
            : r.state === 'http-error'
              ? `The server answered HTTP ${r.httpStatus ?? '?'}${r.error ? ` (${r.error})` : ''}, so there was nothing to keep.`
              : r.state === 'queued'
                ? 'It is still queued: the crawl has not reached it yet.'
                : r.state === 'redirect'
                  ? `It redirects to ${r.redirectTo ?? 'another address'}.`
                  : 'It was archived, but not as a page the viewer can show.';

  const addToCrawl = async (): Promise<void> => {
    if (!job) return;
    if (isRecorded(job.status)) {
      // A finished capture keeps its settings: the URL goes into the next capture's seeds.
      useNav.getState().openJobForm({ kind: 'create', from: jobId, addSeeds: [url] });
      return;
    }
    const reply = await command('jobs.update', { id: jobId, job: { ...job.job, seeds: [...job.job.seeds, url] } });
    if (reply.ok) {
      useJobs.getState().upsert(reply.value);
      setAdded(true);
      useToasts.getState().push('info', `Added ${url} to the seeds of “${job.job.name}”. ${job.status === 'new' ? 'Start' : 'Resume'} the job to fetch it.`);
    }
  };
  const canAdd = job ? isRecorded(job.status) || isEditable(job.status) : false;

  return (
    <section className="not-in-archive" aria-label="Not in this archive" data-testid="not-in-archive">
      <h2>Not in this archive</h2>
      <p className="missing-url" data-testid="not-in-archive-url">
        {url}
      </p>
      <p data-testid="not-in-archive-why">{why}</p>
      {detail?.fetchedAt && <p className="muted small">Outcome recorded {formatDate(detail.fetchedAt)}.</p>}
      <div className="row">
        {r?.state === 'redirect' && r.redirectTo && (
          <button className="primary" onClick={() => onOpenUrl(r.redirectTo!)} data-testid="not-in-archive-follow">
            Go to where it redirects
          </button>
        )}
        <button onClick={() => void addToCrawl()} disabled={!canAdd || added} title={canAdd ? undefined : 'Pause the job first'} data-testid="not-in-archive-add">
          {added ? 'Added to the crawl' : job && isRecorded(job.status) ? 'Add to a new capture…' : 'Add to the crawl'}
        </button>
      </div>
      <p className="muted small">
        Use Back to return to the page you came from. The link leads to the live web, which the viewer does not open: what you see here is only what
        was archived.
      </p>
    </section>
  );
}
