import { diffWordsWithSpace, type Change } from 'diff';
import { useEffect, useState } from 'react';
import type { CaptureContentReply } from '../../../shared/appViews.js';
import { plural } from '../../lib/format.js';
import { commandValue } from '../../stores/command.js';

interface Props {
  jobId: string;
  url: string;
  from: number;
  to: number;
  onClose(): void;
}

/** Word-level differences between two texts: each side's text, with what the other lacks marked. */
export function sideBySide(before: string, after: string): { left: Change[]; right: Change[]; removed: number; added: number } {
  // Whitespace is a token too, so each side is its own text exactly (line breaks included).
  const parts = diffWordsWithSpace(before, after);
  const words = (p: Change) => p.value.split(/\s+/).filter((w) => w !== '').length;
  return {
    left: parts.filter((p) => !p.added),
    right: parts.filter((p) => !p.removed),
    removed: parts.filter((p) => p.removed).reduce((n, p) => n + words(p), 0),
    added: parts.filter((p) => p.added).reduce((n, p) => n + words(p), 0),
  };
}

/** The visible text of two captures of a page side by side, removed words marked on the left, added ones on the right. */
export function TextDiff({ jobId, url, from, to, onClose }: Props) {
  const [texts, setTexts] = useState<[CaptureContentReply, CaptureContentReply] | null | 'failed'>(null);

  useEffect(() => {
    let live = true;
    setTexts(null);
    void Promise.all([from, to].map((capture) => commandValue('archives.captureContent', { id: jobId, url, capture }))).then(([a, b]) => {
      if (live) setTexts(a && b ? [a, b] : 'failed');
    });
    return () => {
      live = false;
    };
  }, [jobId, url, from, to]);

  let body;
  if (texts === null) body = <p className="muted">Reading both captures from the WARC files…</p>;
  else if (texts === 'failed') body = <p>One of the captures could not be read (see the message above).</p>;
  else if (texts[0].text === null || texts[1].text === null) body = <p>This is not an HTML page: it has no visible text to compare.</p>;
  else {
    const d = sideBySide(texts[0].text, texts[1].text);
    body = (
      <>
        <p data-testid="diff-summary">
          {d.added === 0 && d.removed === 0
            ? 'The visible text is the same in both captures.'
            : `${plural(d.removed, 'word')} removed, ${plural(d.added, 'word')} added.`}
        </p>
        <div className="diff-columns">
          <section aria-label={`Capture ${from}`}>
            <h3>Capture {from}</h3>
            <pre className="diff-text" data-testid="diff-before">
              {d.left.map((p, i) => (p.removed ? <del key={i}>{p.value}</del> : <span key={i}>{p.value}</span>))}
            </pre>
          </section>
          <section aria-label={`Capture ${to}`}>
            <h3>Capture {to}</h3>
            <pre className="diff-text" data-testid="diff-after">
              {d.right.map((p, i) => (p.added ? <ins key={i}>{p.value}</ins> : <span key={i}>{p.value}</span>))}
            </pre>
          </section>
        </div>
      </>
    );
  }

  return (
    <div className="text-diff" role="region" aria-label="Text differences" data-testid="text-diff">
      <div className="row">
        <h2>
          Visible text, capture {from} and capture {to}
        </h2>
        <button onClick={onClose} data-testid="diff-close">
          Close
        </button>
      </div>
      {body}
    </div>
  );
}
