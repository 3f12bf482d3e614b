import { useEffect, useState } from 'react';
import type { QaPageDetail } from '../../../shared/qa.js';
import { plural } from '../../lib/format.js';
import { commandValue } from '../../stores/command.js';
import { sideBySide } from '../Viewer/TextDiff.js';
import { pct } from './score.js';

/** Texts longer than this are compared in the view by their beginning (the score used all of it). */
const DIFF_CHARS = 30_000;

/** One analysed page: its figures, both first screenfuls side by side and under a slider, the text diff, what the copy lacks. */
export function PageDetail({ jobId, url, onClose }: { jobId: string; url: string; onClose(): void }) {
  const [detail, setDetail] = useState<QaPageDetail | null | 'missing'>(null);

  useEffect(() => {
    let live = true;
    setDetail(null);
    void commandValue('qa.page', { id: jobId, url }).then((d) => {
      if (live) setDetail(d ?? 'missing');
    });
    return () => {
      live = false;
    };
  }, [jobId, url]);

  return (
    <section className="qa-detail" aria-labelledby="qa-detail-title" data-testid="qa-detail">
      <div className="row">
        <h3 id="qa-detail-title" className="qa-detail-title">
          {url}
        </h3>
        <span className="spacer" />
        <button onClick={onClose} data-testid="qa-detail-close">
          Close
        </button>
      </div>
      {detail === null && <p className="muted">Reading the page’s analysis…</p>}
      {detail === 'missing' && <p>This page has no analysis in the newest capture.</p>}
      {detail !== null && detail !== 'missing' && <DetailBody d={detail} />}
    </section>
  );
}

function DetailBody({ d }: { d: QaPageDetail }) {
  const r = d.result;
  return (
    <>
      <p data-testid="qa-detail-figures">
        Text match {pct(r.textMatch)} · screenshot match {pct(r.screenshotMatch)} · {plural(r.missing.length, 'missing resource')} ·{' '}
        {plural(r.deadLinks.length, 'dead link')} · analysed {new Date(r.analysedAt).toLocaleString()}
      </p>
      {r.error && (
        <p className="error-banner" data-testid="qa-detail-error">
          Not compared: {r.error}
        </p>
      )}
      <Screens d={d} />
      <h4>What the copy could not load</h4>
      {r.missing.length === 0 ? (
        <p className="muted" data-testid="qa-missing-none">
          Nothing: the copy loaded everything the live page did.
        </p>
      ) : (
        <table className="report-table" data-testid="qa-missing">
          <caption className="sr-only">Resources the live page loaded and the copy could not</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">URL</th>
            </tr>
          </thead>
          <tbody>
            {r.missing.map((m) => (
              <tr key={m.url} data-testid="qa-missing-row">
                <td>{m.type}</td>
                <td>{m.url}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>Dead links in the copy</h4>
      {r.deadLinks.length === 0 ? (
        <p className="muted">None: every link into the offline copy finds its file.</p>
      ) : (
        <ul className="qa-dead" data-testid="qa-dead-links">
          {r.deadLinks.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
      <Texts reference={d.reference.text} copy={d.copy.text} />
    </>
  );
}

/** The two first screenfuls side by side, and one over the other with a slider between them. */
function Screens({ d }: { d: QaPageDetail }) {
  const [split, setSplit] = useState(50);
  if (d.reference.image === null || d.copy.image === null) {
    return <p className="muted">No screenshots were kept for this page (it was analysed by an earlier version, or could not be rendered).</p>;
  }
  return (
    <>
      <div className="qa-shots">
        <figure>
          <img src={d.reference.image} alt="The live page’s first screenful (reference)" data-testid="qa-shot-reference" />
          <figcaption>Live page (reference)</figcaption>
        </figure>
        <figure>
          <img src={d.copy.image} alt="The archived copy’s first screenful" data-testid="qa-shot-copy" />
          <figcaption>Archived copy</figcaption>
        </figure>
      </div>
      <figure className="qa-wipe">
        <div className="qa-wipe-frame">
          <img src={d.copy.image} alt="" />
          <img src={d.reference.image} alt="" className="qa-wipe-top" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }} data-testid="qa-wipe-reference" />
          <span className="qa-wipe-line" style={{ left: `${split}%` }} aria-hidden="true" />
        </div>
        <figcaption>
          <label>
            Live page on the left, archived copy on the right of the line{' '}
            <input
              type="range"
              min={0}
              max={100}
              step={5}
              value={split}
              onChange={(e) => setSplit(Number(e.target.value))}
              aria-valuetext={`${split}% of the width shows the live page`}
              data-testid="qa-slider"
            />
          </label>
        </figcaption>
      </figure>
    </>
  );
}

function Texts({ reference, copy }: { reference: string | null; copy: string | null }) {
  if (reference === null || copy === null) return null;
  const cut = reference.length > DIFF_CHARS || copy.length > DIFF_CHARS;
  const d = sideBySide(reference.slice(0, DIFF_CHARS), copy.slice(0, DIFF_CHARS));
  return (
    <>
      <h4>Visible text</h4>
      <p data-testid="qa-diff-summary">
        {d.added === 0 && d.removed === 0
          ? 'The visible text is the same on the live page and in the copy.'
          : `${plural(d.removed, 'word')} of the live page missing from the copy, ${plural(d.added, 'word')} only in the copy.`}
        {cut && ' (Compared here by their first 30,000 characters.)'}
      </p>
      <div className="diff-columns qa-diff">
        <section aria-label="Live page text">
          <h5>Live page</h5>
          <pre className="diff-text" tabIndex={0} data-testid="qa-diff-reference">
            {d.left.map((p, i) => (p.removed ? <del key={i}>{p.value}</del> : <span key={i}>{p.value}</span>))}
          </pre>
        </section>
        <section aria-label="Archived copy text">
          <h5>Archived copy</h5>
          <pre className="diff-text" tabIndex={0} data-testid="qa-diff-copy">
            {d.right.map((p, i) => (p.added ? <ins key={i}>{p.value}</ins> : <span key={i}>{p.value}</span>))}
          </pre>
        </section>
      </div>
    </>
  );
}
