import { useEffect, useState } from 'react';
import { QA_COPIES, type QaCopy, type QaEvidence, type QaPageDetail } from '../../../shared/qa.js';
import { plural } from '../../lib/format.js';
import { commandValue } from '../../stores/command.js';
import { sideBySide } from '../Viewer/TextDiff.js';
import { pct } from './score.js';
import { TableHead } from '../Table/TableHead.js';

/** Texts longer than this are compared in the view by their beginning (the score used all of it). */
const DIFF_CHARS = 30_000;

/** One analysed page: its figures, both first screenfuls side by side and under a slider, the text diff, what the copy lacks. */
export function PageDetail({ jobId, url, capture = null, onClose }: { jobId: string; url: string; capture?: number | null; onClose(): void }) {
  const [detail, setDetail] = useState<QaPageDetail | null | 'missing'>(null);

  useEffect(() => {
    let live = true;
    setDetail(null);
    void commandValue('qa.page', { id: jobId, url, ...(capture !== null && { capture }) }).then((d) => {
      if (live) setDetail(d ?? 'missing');
    });
    return () => {
      live = false;
    };
  }, [jobId, url, capture]);

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
      {detail === 'missing' && <p>This page has no analysis in {capture === null ? 'the newest capture' : `capture ${capture}`}.</p>}
      {detail !== null && detail !== 'missing' && <DetailBody d={detail} />}
    </section>
  );
}

const COPY_NAMES: Record<QaCopy, string> = { mirror: 'Offline copy', replay: 'WACZ replay' };

function DetailBody({ d }: { d: QaPageDetail }) {
  const r = d.result;
  const compared = QA_COPIES.filter((c) => r.copies[c] !== undefined);
  const [chosen, setChosen] = useState<QaCopy>(compared[0] ?? 'mirror');
  const copy = compared.includes(chosen) ? chosen : (compared[0] ?? 'mirror');
  const figures = r.copies[copy] ?? r;
  const evidence = copy === 'replay' ? d.replay : d.copy;
  const reference = r.reference === 'crawl-render' ? 'Crawl-time render' : 'Live page';
  return (
    <>
      <p data-testid="qa-detail-figures">
        Text match {pct(r.textMatch)} · screenshot match {pct(r.screenshotMatch)} · {plural(r.missing.length, 'missing resource')} ·{' '}
        {plural(r.deadLinks.length, 'dead link')} · analysed {new Date(r.analysedAt).toLocaleString()} · reference: {reference.toLowerCase()}
      </p>
      {r.error && (
        <p className="error-banner" data-testid="qa-detail-error">
          Not compared: {r.error}
        </p>
      )}
      {compared.length > 1 && (
        <fieldset className="qa-copy-switch" data-testid="qa-copy-switch">
          <legend>Copy compared</legend>
          {compared.map((c) => (
            <label key={c}>
              <input type="radio" name="qa-copy" value={c} checked={c === copy} onChange={() => setChosen(c)} data-testid={`qa-copy-${c}`} />{' '}
              {COPY_NAMES[c]}: {r.copies[c]!.skipped ? `not compared (${r.copies[c]!.skipped})` : `text ${pct(r.copies[c]!.textMatch)}, screenshot ${pct(r.copies[c]!.screenshotMatch)}`}
            </label>
          ))}
        </fieldset>
      )}
      {figures !== r && figures.error && (
        <p className="error-banner" data-testid="qa-copy-error">
          {COPY_NAMES[copy]} not compared: {figures.error}
        </p>
      )}
      <Screens reference={d.reference} copy={evidence} labels={{ reference, copy: COPY_NAMES[copy] }} />
      <h4>What the {COPY_NAMES[copy].toLowerCase()} could not load</h4>
      {figures.missing.length === 0 ? (
        <p className="muted" data-testid="qa-missing-none">
          Nothing: the copy loaded everything the reference did.
        </p>
      ) : (
        <table className="report-table" data-testid="qa-missing">
          <caption className="sr-only">Resources the reference loaded and the copy could not</caption>
          <TableHead columns={[{ label: 'Type' }, { label: 'URL' }]} />
          <tbody>
            {figures.missing.map((m) => (
              <tr key={m.url} data-testid="qa-missing-row">
                <td>{m.type}</td>
                <td>{m.url}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>Dead links in the offline copy</h4>
      {r.deadLinks.length === 0 ? (
        <p className="muted">None: every link into the offline copy finds its file.</p>
      ) : (
        <ul className="qa-dead" data-testid="qa-dead-links">
          {r.deadLinks.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
      <Texts reference={d.reference.text} copy={evidence.text} labels={{ reference, copy: COPY_NAMES[copy] }} />
    </>
  );
}

interface SideLabels {
  reference: string;
  copy: string;
}

/** The two first screenfuls side by side, and one over the other with a slider between them. */
function Screens({ reference, copy, labels }: { reference: QaEvidence; copy: QaEvidence; labels: SideLabels }) {
  const [split, setSplit] = useState(50);
  if (reference.image === null || copy.image === null) {
    return <p className="muted">No screenshots were kept for this page (it was analysed by an earlier version, or could not be rendered).</p>;
  }
  return (
    <>
      <div className="qa-shots">
        <figure>
          <img src={reference.image} alt={`${labels.reference}: first screenful (reference)`} data-testid="qa-shot-reference" />
          <figcaption>{labels.reference} (reference)</figcaption>
        </figure>
        <figure>
          <img src={copy.image} alt={`${labels.copy}: first screenful`} data-testid="qa-shot-copy" />
          <figcaption>{labels.copy}</figcaption>
        </figure>
      </div>
      <figure className="qa-wipe">
        <div className="qa-wipe-frame">
          <img src={copy.image} alt="" />
          <img src={reference.image} alt="" className="qa-wipe-top" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }} data-testid="qa-wipe-reference" />
          <span className="qa-wipe-line" style={{ left: `${split}%` }} aria-hidden="true" />
        </div>
        <figcaption>
          <label>
            {labels.reference} on the left, {labels.copy.toLowerCase()} on the right of the line{' '}
            <input
              type="range"
              min={0}
              max={100}
              step={5}
              value={split}
              onChange={(e) => setSplit(Number(e.target.value))}
              aria-valuetext={`${split}% of the width shows the reference`}
              data-testid="qa-slider"
            />
          </label>
        </figcaption>
      </figure>
    </>
  );
}

function Texts({ reference, copy, labels }: { reference: string | null; copy: string | null; labels: SideLabels }) {
  if (reference === null || copy === null) return null;
  const cut = reference.length > DIFF_CHARS || copy.length > DIFF_CHARS;
  const d = sideBySide(reference.slice(0, DIFF_CHARS), copy.slice(0, DIFF_CHARS));
  return (
    <>
      <h4>Visible text</h4>
      <p data-testid="qa-diff-summary">
        {d.added === 0 && d.removed === 0
          ? `The visible text is the same in the ${labels.reference.toLowerCase()} and the ${labels.copy.toLowerCase()}.`
          : `${plural(d.removed, 'word')} of the ${labels.reference.toLowerCase()} missing from the ${labels.copy.toLowerCase()}, ${plural(d.added, 'word')} only in the copy.`}
        {cut && ' (Compared here by their first 30,000 characters.)'}
      </p>
      <div className="diff-columns qa-diff">
        <section aria-label={`${labels.reference} text`}>
          <h5>{labels.reference}</h5>
          <pre className="diff-text" tabIndex={0} data-testid="qa-diff-reference">
            {d.left.map((p, i) => (p.removed ? <del key={i}>{p.value}</del> : <span key={i}>{p.value}</span>))}
          </pre>
        </section>
        <section aria-label={`${labels.copy} text`}>
          <h5>{labels.copy}</h5>
          <pre className="diff-text" tabIndex={0} data-testid="qa-diff-copy">
            {d.right.map((p, i) => (p.added ? <ins key={i}>{p.value}</ins> : <span key={i}>{p.value}</span>))}
          </pre>
        </section>
      </div>
    </>
  );
}
