import { useEffect, useState } from 'react';
import type { CaptureOutcome, UrlCaptureInfo } from '../../../shared/captures.js';
import { formatDate } from '../../lib/format.js';
import { commandValue } from '../../stores/command.js';

/** How each capture of a page compares with the one before, as the timeline marks it. */
export const OUTCOME_MARKS: Record<CaptureOutcome, string> = {
  new: 'new',
  restored: 'restored',
  changed: 'changed',
  'markup-only': 'markup only',
  unchanged: 'unchanged',
  'not-modified': 'unchanged (304)',
  removed: 'removed',
  'http-error': 'HTTP error',
  failed: 'failed',
};

interface Props {
  jobId: string;
  /** The page's original URL. */
  url: string;
  /** The capture in view; null for the offline copy (the latest). */
  shown: number | null;
  onShow(capture: number | null): void;
  onCompare(from: number, to: number): void;
}

/**
 * The captures of the page in view, oldest first, each marked new/changed/unchanged/removed against
 * the one before; picking one shows the page as it was then. A removed or failed capture has no copy
 * of its own. Two captures' visible text can be compared.
 */
export function Timeline({ jobId, url, shown, onShow, onCompare }: Props) {
  const [captures, setCaptures] = useState<UrlCaptureInfo[] | null>(null);
  const [pair, setPair] = useState<{ from: number; to: number } | null>(null);

  useEffect(() => {
    let live = true;
    setCaptures(null);
    void commandValue('archives.urlCaptures', { id: jobId, url }).then((list) => {
      if (!live || !list) return;
      setCaptures(list);
      const readable = list.filter((c) => c.readable).map((c) => c.capture);
      setPair(readable.length >= 2 ? { from: readable[readable.length - 2]!, to: readable[readable.length - 1]! } : null);
    });
    return () => {
      live = false;
    };
  }, [jobId, url]);

  if (captures === null || captures.length < 2) return null;
  const readable = captures.filter((c) => c.readable);
  const choice = (value: number, set: (n: number) => void, testId: string, label: string) => (
    <select value={value} onChange={(e) => set(Number(e.target.value))} aria-label={label} data-testid={testId}>
      {readable.map((c) => (
        <option key={c.capture} value={c.capture}>
          Capture {c.capture}, {formatDate(c.fetchedAt)}
        </option>
      ))}
    </select>
  );

  return (
    <nav className="timeline" aria-label="Captures of this page" data-testid="timeline">
      <span className="muted small">Captures of this page:</span>
      <ol>
        {captures.map((c) => (
          <li key={c.capture}>
            <button
              className={`timeline-capture${shown === c.capture ? ' current' : ''}`}
              aria-pressed={shown === c.capture}
              disabled={!c.readable}
              title={c.readable ? `Show the page as capture ${c.capture} had it` : `Capture ${c.capture} has no copy of this page (${OUTCOME_MARKS[c.outcome]})`}
              onClick={() => onShow(c.capture)}
              data-testid="timeline-capture"
              data-capture={c.capture}
            >
              {c.capture}. {formatDate(c.fetchedAt)} <span className={`mark mark-${c.outcome}`}>{OUTCOME_MARKS[c.outcome]}</span>
            </button>
          </li>
        ))}
        <li>
          <button className={`timeline-capture${shown === null ? ' current' : ''}`} aria-pressed={shown === null} onClick={() => onShow(null)} data-testid="timeline-latest">
            Offline copy (latest)
          </button>
        </li>
      </ol>
      {pair && (
        <span className="timeline-compare">
          {choice(pair.from, (from) => setPair({ ...pair, from }), 'compare-from', 'Compare from capture')}
          {choice(pair.to, (to) => setPair({ ...pair, to }), 'compare-to', 'with capture')}
          <button onClick={() => onCompare(pair.from, pair.to)} disabled={pair.from === pair.to} data-testid="compare-text">
            Compare text
          </button>
        </span>
      )}
    </nav>
  );
}
