import type { SearchHitRow, SnippetPart } from '../../../shared/search.js';
import { formatDate } from '../../lib/format.js';

const KIND_NAMES = { html: 'page', pdf: 'PDF', text: 'text file' } as const;

/** A snippet as text with the matched words in <mark>: the parts are text, never markup. */
export function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <p className="hit-snippet" data-testid="hit-snippet">
      {parts.map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </p>
  );
}

/** One page of search results; picking one with an offline copy opens it in the viewer. */
export function SearchHits({
  hits,
  archiveName,
  onOpen,
}: {
  hits: SearchHitRow[];
  /** With several archives searched, names each hit's archive. */
  archiveName: ((jobId: string) => string) | null;
  onOpen(hit: SearchHitRow): void;
}) {
  return (
    <ol className="search-hits" data-testid="search-hits">
      {hits.map((h) => (
        <li key={`${h.jobId} ${h.url} ${h.capture}`} className="search-hit" data-testid="search-hit">
          <button
            className="link hit-title"
            onClick={() => onOpen(h)}
            disabled={h.localPath === null}
            title={h.localPath === null ? 'The offline copy holds no file for this URL' : 'Open in the viewer, with the words highlighted'}
            data-testid="hit-open"
          >
            {h.title || h.url}
          </button>
          <div className="hit-url small" data-testid="hit-url">
            {h.url}
          </div>
          <div className="muted small" data-testid="hit-meta">
            {KIND_NAMES[h.kind]} · captured {formatDate(h.capturedAt)}
            {h.capture > 1 ? ` (capture ${h.capture})` : ''}
            {archiveName ? ` · ${archiveName(h.jobId)}` : ''}
            {h.localPath === null ? ' · no offline copy' : ''}
          </div>
          <Snippet parts={h.snippet} />
        </li>
      ))}
    </ol>
  );
}
