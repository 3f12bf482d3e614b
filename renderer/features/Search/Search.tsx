import { useEffect, useState } from 'react';
import type { SearchKind, SearchReply } from '../../../shared/search.js';
import { SEARCH_KINDS } from '../../../shared/search.js';
import { api } from '../../api/index.js';
import { formatCount } from '../../lib/format.js';
import { useArchives } from '../../stores/archives.js';
import { ALL_ARCHIVES, useNav } from '../../stores/nav.js';
import { ArchivePicker } from '../ArchivePicker/index.js';
import { SearchHits } from './SearchHits.js';

/** Hits per page of results. */
export const SEARCH_PAGE = 20;

const KIND_LABELS: Record<SearchKind, string> = { html: 'Pages', pdf: 'PDFs', text: 'Text files' };

/** What was last asked: results and paging follow it, not what is being typed. */
interface Asked {
  scope: string;
  query: string;
  kind: SearchKind | '';
  offset: number;
}

/**
 * Full-text search of an archive, or of every archive: the index and query language of `harvest
 * search`. A query the language refuses is shown here with its cause, as the archivist typed it.
 */
export function Search() {
  const list = useArchives((s) => s.list);
  const navScope = useNav((s) => s.searchScope);
  const viewing = useNav((s) => s.viewer?.jobId ?? null);
  const [scope, setScope] = useState<string | null>(navScope ?? viewing ?? list[0]?.jobId ?? null);
  const [typed, setTyped] = useState('');
  const [kind, setKind] = useState<SearchKind | ''>('');
  const [asked, setAsked] = useState<Asked | null>(null);
  const [reply, setReply] = useState<SearchReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (scope === null && list[0]) setScope(list[0].jobId);
  }, [list, scope]);

  useEffect(() => {
    if (!asked) return;
    let live = true;
    const ids = asked.scope === ALL_ARCHIVES ? list.map((a) => a.jobId) : [asked.scope];
    if (ids.length === 0) return;
    setBusy(true);
    void api()
      ['archives.search']({ ids, query: asked.query, offset: asked.offset, limit: SEARCH_PAGE, ...(asked.kind && { kind: asked.kind }) })
      .then((r) => {
        if (!live) return;
        setBusy(false);
        if (r.ok) {
          setReply(r.value);
          setError(null);
        } else {
          setReply(null);
          setError(r.error.code === 'invalid-query' ? `This query can't run: ${r.error.message}.` : r.error.message);
        }
      });
    return () => {
      live = false;
    };
    // The archive list is read when a search is asked, not followed afterwards.
  }, [asked]);

  const submit = (): void => {
    const query = typed.trim();
    if (!query || scope === null) return;
    setAsked({ scope, query, kind, offset: 0 });
  };
  const page = (offset: number): void => setAsked((a) => (a ? { ...a, offset } : a));

  const names = new Map(list.map((a) => [a.jobId, a.name]));
  const first = asked ? asked.offset + 1 : 0;
  const last = asked && reply ? asked.offset + reply.hits.length : 0;
  return (
    <div className="search-screen" data-testid="search">
      <form
        className="search-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <ArchivePicker value={scope} onChange={setScope} all={{ value: ALL_ARCHIVES, label: 'All archives' }} testId="search-scope" />
        <input
          type="search"
          className="search-input"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder='Words, "a phrase", OR, NOT, word*'
          aria-label="Search the archived text"
          data-shortcut="search"
          data-testid="search-input"
        />
        <select value={kind} onChange={(e) => setKind(e.target.value as SearchKind | '')} aria-label="Type of document" data-testid="search-kind">
          <option value="">All types</option>
          {SEARCH_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
        <button type="submit" className="primary" disabled={!typed.trim() || scope === null} data-testid="search-submit">
          Search
        </button>
      </form>
      <p className="muted small">
        All words must match (AND is implied); <code>&quot;reading room&quot;</code> finds a phrase, <code>OR</code> and <code>NOT</code> (upper
        case) combine, <code>manuscript*</code> finds words that start so. Accents and case don&apos;t matter.
      </p>
      {error && (
        <p className="error-banner" role="alert" data-testid="search-error">
          {error}
        </p>
      )}
      {reply && reply.unindexed.length > 0 && (
        <p className="notice small" data-testid="search-unindexed">
          Not searched, no text index yet: {reply.unindexed.map((u) => u.name).join(', ')}. Build one with <code>harvest reindex &lt;archive-dir&gt;</code>.
        </p>
      )}
      {reply && asked && !error && (
        <>
          <div className="search-summary" data-testid="search-total" aria-live="polite">
            {reply.total === 0
              ? `No page matches ${asked.query}.`
              : `${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${formatCount(reply.total)} ${reply.total === 1 ? 'match' : 'matches'} for ${asked.query}`}
            {busy && <span className="muted"> · searching…</span>}
          </div>
          {reply.ranked < reply.total && (
            <p className="notice small" data-testid="search-ranked">
              Ranked among the newest {formatCount(reply.ranked)} matching texts only: add words to narrow the search.
            </p>
          )}
          <SearchHits
            hits={reply.hits}
            archiveName={asked.scope === ALL_ARCHIVES ? (id) => names.get(id) ?? id : null}
            onOpen={(h) => h.localPath !== null && useNav.getState().openViewer(h.jobId, h.localPath, reply.terms)}
          />
          {reply.ranked > SEARCH_PAGE && (
            <div className="pager">
              <button onClick={() => page(Math.max(0, asked.offset - SEARCH_PAGE))} disabled={asked.offset === 0 || busy} data-testid="search-prev">
                ← Previous
              </button>
              <button onClick={() => page(asked.offset + SEARCH_PAGE)} disabled={last >= reply.ranked || busy} data-testid="search-next">
                Next →
              </button>
            </div>
          )}
        </>
      )}
      {!asked && <p className="empty-state">Search the text of every archived page, PDF and text file: type words and press Enter.</p>}
    </div>
  );
}
