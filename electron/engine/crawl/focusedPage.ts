import type { FocusPolicy, PageVerdict } from '../focus/focusPolicy.js';
import type { PageAnalysis } from '../focus/pageAnalysisTypes.js';
import type { QueuedRow } from '../store/catalogue.js';
import type { UrlCapture } from '../store/catalogueTypes.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import { warcDigest } from '../warc/digest.js';
import type { PreparedTicket } from './documentPool.js';
import type { LinkPlan } from './linkAdmission.js';

/** A focused harvest's verdict on a parsed page, and the plan for its links. */
export interface Judged {
  verdict: PageVerdict;
  analysis: PageAnalysis;
  plan: LinkPlan;
}

/** Null without a template, or for a document that was not scored (CSS). */
export function judgePage(focus: FocusPolicy | null, row: QueuedRow, doc: PreparedTicket): Judged | null {
  const analysis = doc.focus;
  if (focus === null || analysis === undefined) return null;
  const verdict = focus.judge(row, analysis);
  return { verdict, analysis, plan: (index: number) => focus.link(verdict, analysis, index) };
}

/** Whether the response carries the payload of the URL's previous capture (then its extracted fields stand). */
export function samePayload(prev: UrlCapture | undefined, res: FetchResponse): boolean {
  return prev?.payloadDigest != null && prev.payloadDigest === warcDigest([res.wireBody]);
}
