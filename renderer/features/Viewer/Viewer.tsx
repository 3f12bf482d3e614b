import { useEffect, useRef, useState } from 'react';
import type { PageRow } from '../../../shared/appViews.js';
import { back, canGoBack, canGoForward, currentPath, emptyHistory, forward, replace, visit, type ViewerHistory } from '../../lib/viewerHistory.js';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { useArchives } from '../../stores/archives.js';
import { commandValue } from '../../stores/command.js';
import { useNav } from '../../stores/nav.js';
import { isFormMessage, missingUrlFromMessage } from '../../../shared/frameLinks.js';
import { archiveBase, locationToken } from '../../../shared/frameLocation.js';
import { highlightMessage } from '../../../shared/frameHighlight.js';
import type { HighlightTerm } from '../../../shared/search.js';
import { formatDate } from '../../lib/format.js';
import { Confirm } from '../Confirm/index.js';
import { viewerUrl } from './frameLocation.js';
import { archivedPathOf, isMissing, MISSING_PREFIX, NotInArchive } from './NotInArchive.js';
import { PageList } from './PageList.js';
import { ScriptsSetting } from './ScriptsSetting.js';
import { TextDiff } from './TextDiff.js';
import { Timeline } from './Timeline.js';
import { capturePath, parseCapturePath } from '../../../shared/capturePath.js';

/**
 * The in-app viewer: an archived page in a sandboxed frame served by the host from the archive
 * folder, the page's original URL above it, back/forward and a page list.
 * The archive is always another origin than the app (a second listener on the web host, the
 * harvest-archive: scheme in Electron), so allow-same-origin gives the page its own archive origin,
 * never the app's: it can't reach the parent's DOM or the API, nor lift its sandbox. It keeps web
 * fonts and the page's own requests working (both need a real origin), and matches the sandbox
 * the host's CSP puts on archived pages. no-referrer keeps the app URL's token out of the page.
 */
export function Viewer() {
  const target = useNav((s) => s.viewer);
  const info = useApp((s) => s.info);
  if (!target) {
    return (
      <div className="empty-state" data-testid="viewer-empty">
        <p>No archive open. Open one from the Library (g l) or with Browse on a job.</p>
      </div>
    );
  }
  if (!info) return null;
  return (
    <ArchiveViewer
      key={`${target.jobId}#${target.serial}`}
      jobId={target.jobId}
      startPath={target.localPath}
      viewerBase={info.viewerBase}
      highlight={target.highlight ?? null}
    />
  );
}

interface Props {
  jobId: string;
  startPath: string;
  viewerBase: string;
  /** A search's words, marked in each page the frame shows until the archivist clears them. */
  highlight: HighlightTerm[] | null;
}

/** The mirror's own start page, written by Harvest (not a harvested page). */
const MIRROR_INDEX = 'index.html';

/**
 * Whether a message comes from this archive's own origin (`http://<job>.localhost:<port>` on the web
 * host, `harvest-archive://<job>` in Electron): a frame sent anywhere else has left the archive.
 */
function fromArchive(origin: string, viewerBase: string, jobId: string): boolean {
  return origin !== 'null' && archiveBase(viewerBase, jobId).startsWith(`${origin}/`);
}

/**
 * Whether the archivist has just clicked in `frame`: a click there gives this document transient
 * user activation too (it reaches every ancestor of the frame) and leaves the frame focused; a
 * click in the app moves the focus away. A browser without `navigator.userActivation` never says so.
 */
function followsClickIn(frame: HTMLIFrameElement | null): boolean {
  const activation = (navigator as { userActivation?: { isActive: boolean } }).userActivation;
  return frame !== null && document.activeElement === frame && activation?.isActive === true;
}

/**
 * Whether the frame went somewhere on its own (a meta refresh, a script), not after a click or key
 * in it: a redirect. Unknown (false) in a browser that can't tell user activation.
 */
function navigatedOnItsOwn(frame: HTMLIFrameElement | null): boolean {
  return (navigator as { userActivation?: unknown }).userActivation !== undefined && !followsClickIn(frame);
}

function ArchiveViewer({ jobId, startPath, viewerBase, highlight: searched }: Props) {
  const isWeb = useApp(selectIsWebHost);
  const archive = useArchives((s) => s.list.find((a) => a.jobId === jobId));
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [history, setHistory] = useState<ViewerHistory>(() => visit(emptyHistory, startPath));
  /** Bumped by every navigation the viewer itself makes, so the effect below loads it. */
  const [navSerial, setNavSerial] = useState(0);
  const [page, setPage] = useState<PageRow | null | undefined>(undefined);
  /** The frame navigated on its own and didn't say where. */
  const [lost, setLost] = useState(false);
  /** A form in the page was submitted, and cancelled: the site that would answer is not archived. */
  const [formCancelled, setFormCancelled] = useState(false);
  /** The origin outside this archive the frame was sent to and brought back from. */
  const [refused, setRefused] = useState<string | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const ownLoad = useRef(true);
  const reported = useRef(false);
  const entry = currentPath(history);
  /** The not-in-archive page's original URL, when that is what the archivist is looking at. */
  const missing = entry !== null && isMissing(entry) ? entry.slice(MISSING_PREFIX.length) : null;
  const path = missing === null ? entry : null;
  /** An earlier capture in view (`@capture/<n>/<path>`), else the offline copy. */
  const earlier = path === null ? null : parseCapturePath(path);
  const localPath = earlier ? earlier.localPath : path;
  const [diff, setDiff] = useState<{ url: string; from: number; to: number } | null>(null);
  const [typed, setTyped] = useState<string | null>(null);
  const [highlight, setHighlight] = useState(searched);
  const highlightRef = useRef(highlight);
  highlightRef.current = highlight;
  /** Location answers can come back out of order: only a newer one than the last applied counts. */
  const asked = useRef(0);
  const applied = useRef(0);
  /** Counts the viewer's own navigations: a location answer for a load made before the latest is stale. */
  const ownNavs = useRef(0);

  const go = (next: ViewerHistory): void => {
    if (next === history) return;
    setHistory(next);
    setNavSerial((n) => n + 1);
  };

  /** Goes to an original URL: its archived copy (following redirects), else the not-in-archive page. */
  const openUrl = async (url: string): Promise<void> => {
    const target = await archivedPathOf(jobId, url);
    setHistory((h) => visit(h, target ?? `${MISSING_PREFIX}${url}`));
    setNavSerial((n) => n + 1);
  };

  useEffect(() => {
    ownNavs.current++;
    const frame = frameRef.current;
    if (!frame || !path) return;
    ownLoad.current = true;
    setLost(false);
    frame.src = viewerUrl(viewerBase, jobId, path);
    // Only the viewer's own navigations (navSerial) load the frame; reported ones already happened.
  }, [navSerial, viewerBase, jobId]);

  useEffect(() => {
    // The frame's document says it loaded; where it is comes from the host, which saw the
    // navigation (a page can post any message, so none is taken at its word).
    const onMessage = (e: MessageEvent): void => {
      if (e.source !== frameRef.current?.contentWindow) return;
      if (!fromArchive(e.origin, viewerBase, jobId)) {
        // Another archive's page (the app's CSP keeps the frame on the archive listener): take the frame back.
        setRefused(e.origin);
        setNavSerial((n) => n + 1);
        return;
      }
      const missingUrl = missingUrlFromMessage(e.data);
      if (missingUrl) {
        // Any script in the page can post this: it is taken only right after a click in the frame.
        if (!followsClickIn(frameRef.current)) return;
        // A click on a link the mirror left pointing at the live web: show what the archive knows of it.
        setHistory((h) => visit(h, `${MISSING_PREFIX}${missingUrl}`));
        return;
      }
      if (isFormMessage(e.data)) {
        // Like a missing link's report, taken only right after a click or key in the frame.
        if (followsClickIn(frameRef.current)) setFormCancelled(true);
        return;
      }
      const token = locationToken(e.data);
      if (token === null) return;
      reported.current = true;
      // The page's script listens for the words before it reports; they go to the origin that reported (the archive's own).
      const terms = highlightRef.current;
      if (terms) frameRef.current?.contentWindow?.postMessage(highlightMessage(terms), e.origin);
      const serial = ++asked.current;
      const nav = ownNavs.current;
      const redirected = navigatedOnItsOwn(frameRef.current);
      void commandValue('archives.frameLocation', token ? { id: jobId, token } : { id: jobId }).then((r) => {
        // Forward or Back pressed while the host answered: the answer would push the page left behind.
        if (!r?.localPath || serial < applied.current || nav !== ownNavs.current) return;
        applied.current = serial;
        const localPath = r.localPath;
        setLost(false);
        setHistory((h) => (redirected ? replace(h, localPath) : visit(h, localPath)));
      });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [viewerBase, jobId]);

  useEffect(() => {
    if (!localPath) return;
    let live = true;
    setPage(undefined);
    setFormCancelled(false);
    void commandValue('archives.lookup', { id: jobId, localPath }).then((row) => live && setPage(row));
    return () => {
      live = false;
    };
  }, [jobId, localPath]);

  const onLoad = (): void => {
    if (!ownLoad.current && !reported.current) setLost(true);
    ownLoad.current = false;
    reported.current = false;
  };

  const [confirmOpen, setConfirmOpen] = useState(false);
  const openInBrowser = async (): Promise<void> => {
    setConfirmOpen(false);
    const where = await useArchives.getState().openInBrowser(jobId);
    if (isWeb && where) setOpened(where);
  };

  // A diff belongs to the page it was asked for.
  const showDiff = diff !== null && page?.url === diff.url && !missing;

  const address = missing
    ? missing
    : lost
    ? 'Followed a link to an address not reported: a file that is not a page, or a place outside this archive (refused)'
    : page === undefined
      ? '…'
      : page
        ? page.url
        : localPath === MIRROR_INDEX
          ? 'Start page of this archive (links to each seed)'
          : `${localPath} (not a harvested page)`;

  return (
    <div className="viewer" data-testid="viewer">
      <div className="viewer-bar">
        <button onClick={() => go(back(history))} disabled={!canGoBack(history)} aria-label="Back" title="Back" data-testid="viewer-back">
          ←
        </button>
        <button onClick={() => go(forward(history))} disabled={!canGoForward(history)} aria-label="Forward" title="Forward" data-testid="viewer-forward">
          →
        </button>
        <form
          className="url-form"
          onSubmit={(e) => {
            e.preventDefault();
            const url = (typed ?? '').trim();
            setTyped(null);
            if (/^https?:\/\//i.test(url)) void openUrl(url);
          }}
        >
          <input
            className="url-bar"
            value={typed ?? address}
            onFocus={(e) => {
              setTyped(/^https?:\/\//i.test(address) ? address : '');
              e.currentTarget.select();
            }}
            onBlur={() => setTyped(null)}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && (setTyped(null), e.currentTarget.blur())}
            placeholder="Type an original URL (https://…) and press Enter"
            aria-label="Original URL: type one to go to its archived copy"
            title={page?.title ?? 'Type an original URL and press Enter to go to its archived copy'}
            spellCheck={false}
            data-testid="viewer-url"
          />
        </form>
        <button onClick={() => (isWeb ? void openInBrowser() : setConfirmOpen(true))} data-testid="viewer-open-browser">
          Open in system browser
        </button>
      </div>
      <ScriptsSetting jobId={jobId} onChange={() => setNavSerial((n) => n + 1)} />
      {refused && (
        <p className="highlight-banner small" role="alert" data-testid="viewer-refused">
          The page sent the viewer to {refused}, outside this archive: Harvest refused it and shows the archive&apos;s page again.{' '}
          <button className="link" onClick={() => setRefused(null)}>
            Dismiss
          </button>
        </p>
      )}
      {lost && (
        <p className="highlight-banner small" data-testid="viewer-lost">
          The frame left the page without saying where it went.{' '}
          <button className="link" onClick={() => setNavSerial((n) => n + 1)} data-testid="viewer-lost-back">
            Back to the last page
          </button>
        </p>
      )}
      {opened && (
        <p className="muted small" data-testid="viewer-browser-path">
          The mirror is at <code>{opened}</code>. Archived pages open only here, in the viewer: opened from disk, their scripts run with no
          protection.
        </p>
      )}
      {highlight && (
        <p className="highlight-banner small" data-testid="viewer-highlight">
          Highlighting {highlight.map((t) => `${t.text}${t.prefix ? '*' : ''}`).join(', ')} in the page{' '}
          <button className="link" onClick={() => (setHighlight(null), setNavSerial((n) => n + 1))} data-testid="viewer-highlight-clear">
            Stop highlighting
          </button>
        </p>
      )}
      {page && !missing && !lost && (
        <p className="capture-banner" data-testid="viewer-banner">
          {earlier ? (
            <>
              The page as capture <strong>{earlier.capture}</strong> had it, from the WARC records · not the live page
            </>
          ) : (
            <>Archived copy{page.capturedAt ? <> captured <strong>{formatDate(page.capturedAt)}</strong></> : null} · not the live page</>
          )}
        </p>
      )}
      {formCancelled && (
        <p className="capture-banner" role="status" data-testid="viewer-form-notice">
          Forms don&apos;t submit in an archived copy: the site that would answer them is not part of the archive.{' '}
          <button className="link" onClick={() => setFormCancelled(false)} data-testid="viewer-form-notice-close">
            Dismiss
          </button>
        </p>
      )}
      {page && localPath && !missing && !lost && (
        <Timeline
          jobId={jobId}
          url={page.url}
          shown={earlier?.capture ?? null}
          onShow={(n) => go(visit(history, n === null ? localPath : capturePath(n, localPath)))}
          onCompare={(from, to) => setDiff({ url: page.url, from, to })}
        />
      )}
      {confirmOpen && (
        <Confirm
          title="Open the copy in your system browser?"
          confirmLabel="Open anyway"
          onCancel={() => setConfirmOpen(false)}
          onConfirm={() => void openInBrowser()}
          testId="viewer-open-browser-confirm"
        >
          <p>
            Opened from disk, the archived pages&apos; scripts run with none of the viewer&apos;s protection: they can reach the internet and read
            other files of the copy. Open it there only if you trust the site.
          </p>
        </Confirm>
      )}
      <div className="viewer-body">
        <PageList jobId={jobId} current={localPath} onOpen={(p) => go(visit(history, p))} thumbnails={archive?.hasThumbnails === true ? viewerBase : null} />
        {missing && <NotInArchive jobId={jobId} url={missing} onOpenUrl={(u) => void openUrl(u)} />}
        {showDiff && <TextDiff jobId={jobId} url={diff.url} from={diff.from} to={diff.to} onClose={() => setDiff(null)} />}
        <iframe
          hidden={missing !== null || showDiff}
          ref={frameRef}
          className="viewer-frame"
          title={archive ? `Archived copy of ${archive.name}` : 'Archived page'}
          sandbox="allow-scripts allow-forms allow-same-origin"
          referrerPolicy="no-referrer"
          onLoad={onLoad}
          data-testid="viewer-frame"
        />
      </div>
    </div>
  );
}
