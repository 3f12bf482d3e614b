import type { Job } from '../../../shared/job.js';
import { FetchError } from '../fetch/errors.js';
import type { FetchResponse } from '../fetch/fetcher.js';
import type { Catalogue, FetchOutcome, QueuedRow, UrlCapture } from '../store/catalogue.js';
import { WarcError } from '../warc/errors.js';
import { exchangeFromFetch } from '../warc/exchange.js';
import type { WarcWriter } from '../warc/writer.js';
import type { FocusPolicy } from '../focus/focusPolicy.js';
import type { ByteBudget } from './byteBudget.js';
import { originalOfPrevious, timingOf, validatorsOf } from './captureFacts.js';
import { documentKind } from './documents.js';
import type { DocumentPool } from './documentPool.js';
import { judgePage } from './focusedPage.js';
import type { LinkAdmission } from './linkAdmission.js';
import { readOriginal } from './originals.js';
import type { OutcomeLog } from './outcomeLog.js';

/** What answering a 304 reads and writes through; the parse budget is the archiver's, shared with fresh documents. */
export interface NotModifiedParts {
  job: Job;
  catalogue: Catalogue;
  documents: DocumentPool;
  warc: WarcWriter | null;
  warcDir: string;
  focus: FocusPolicy | null;
  parseBudget: ByteBudget;
  links: LinkAdmission;
  log: OutcomeLog;
}

/**
 * A 304 to the previous capture's validators: a revisit record, no payload, the mirror's file as
 * it is. A document's links are still followed, from its original read back from the archive.
 * Returns whether the URL is an HTML page.
 */
export async function archiveNotModified(p: NotModifiedParts, row: QueuedRow, res: FetchResponse, prev: UrlCapture): Promise<boolean> {
  const { catalogue: c, job, warc } = p;
  if (warc !== null) await warc.writeNotModified(exchangeFromFetch(res), originalOfPrevious(c, row.url, prev), prev.payloadDigest);
  const kind = documentKind(prev.contentType, row.url);
  let title: string | null = null;
  let error: string | null = null;
  let judged: ReturnType<typeof judgePage> = null;
  const original = kind === 'other' ? undefined : c.getOriginal(row.id);
  if (kind !== 'other' && original !== undefined) {
    let body: Buffer | null = null;
    try {
      body = await readOriginal(p.warcDir, original, job.fetch.maxResponseBytes);
    } catch (e) {
      if (!(e instanceof FetchError || (e instanceof WarcError && e.code === 'damaged'))) throw e;
      error = `links not followed, its original is unreadable: ${e.message}`;
    }
    if (body !== null) {
      const giveBack = await p.parseBudget.take(body.length);
      try {
        const focus = kind === 'html' ? p.focus?.request(row, false) : undefined;
        const doc = await p.documents.prepare({ kind, body, url: row.url, contentType: prev.contentType, packOriginal: false, ...(focus !== undefined && { focus }) });
        title = doc.title;
        judged = judgePage(p.focus, row, doc);
        p.links.admit(row, doc, false, judged?.plan ?? null);
      } finally {
        giveBack();
      }
    }
  }
  const outcome: FetchOutcome = {
    state: 'archived',
    httpStatus: res.status,
    contentType: prev.contentType,
    bytes: prev.bytes,
    localPath: prev.localPath,
    redirectToId: null,
    error,
    title,
  };
  const validators = validatorsOf(res);
  if (judged !== null) p.focus!.record(row, judged.verdict, judged.analysis, res.startedAt.toISOString());
  p.log.record(row, outcome, prev, {
    outcome: 'not-modified',
    payloadDigest: prev.payloadDigest,
    textDigest: prev.textDigest,
    etag: validators.etag ?? prev.etag,
    lastModified: validators.lastModified ?? prev.lastModified,
    record: prev.record,
    contentEncoding: prev.contentEncoding,
    timing: timingOf(res),
  });
  return kind === 'html';
}
