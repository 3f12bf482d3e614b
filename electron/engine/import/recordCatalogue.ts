import type { DocumentPool } from '../crawl/documentPool.js';
import { documentKind } from '../crawl/documents.js';
import { textKindOf } from '../crawl/textIndexing.js';
import { decodeContent } from '../fetch/decompress.js';
import { FetchError } from '../fetch/errors.js';
import type { Archive } from '../store/archive.js';
import { compareCapture } from '../store/captureOutcome.js';
import type { FetchOutcome, PayloadCapture, UrlRow } from '../store/catalogue.js';
import type { TextIndex } from '../store/textIndex.js';
import { canonicalize } from '../url/canonical.js';
import { localPathFor } from '../url/localPath.js';
import { warcDigest } from '../warc/digest.js';
import { WarcError } from '../warc/errors.js';
import { readResponsePayload } from '../warc/readResponse.js';
import type { RecordPlace } from '../warc/types.js';
import { ImportedRenders } from './importedRenders.js';
import { responseHeaders, type RecordFacts } from './recordFacts.js';

/** What became of one record: in the catalogue, not a page answer (copied only), or a problem to report. */
export type Taken = { kind: 'catalogued' } | { kind: 'copied' } | { kind: 'problem'; why: string };

/**
 * Puts the response and revisit records of an import into the catalogue as a crawl would have
 * recorded their answers: one row per URL, one capture row per URL and capture, the state from the
 * status (archived, redirect, http-error), a revisit resolved to its original's payload. Files other
 * than HTML and CSS are saved to the mirror at once; documents are parsed for their title, text and
 * text digest, and their copies are written by the finishing pass once every target is known. A
 * rendered crawl's thumbnails, texts and requests (resource records) become its pages' crawl renders.
 */
export class RecordCatalogue {
  private readonly renders: ImportedRenders;

  constructor(
    private readonly archive: Archive,
    private readonly pool: DocumentPool,
    private readonly index: TextIndex,
    private readonly seeds: ReadonlySet<string>,
  ) {
    this.renders = new ImportedRenders(archive.dir);
  }

  /** The URL whose catalogue rows a record would change: a response's or revisit's; null for others. */
  urlOf(f: RecordFacts): string | null {
    if ((f.type !== 'response' && f.type !== 'revisit') || f.http === null || f.uri === null) return null;
    return /^https?:/i.test(f.uri) ? canonicalize(f.uri) : null;
  }

  /**
   * Catalogues one record. Records of different URLs may be taken at once (see RecordWindow): all
   * that one take reads and writes is its URL's rows, a redirect target's row, and the payload
   * digests a later revisit looks up.
   */
  async take(f: RecordFacts, place: RecordPlace): Promise<Taken> {
    if (f.resource !== null && f.uri !== null) {
      await this.renders.take(f.uri, f.resource, this.archive.catalogue.currentCapture());
      return { kind: 'copied' };
    }
    const url = this.urlOf(f);
    if (url === null || f.http === null) return { kind: 'copied' };
    const c = this.archive.catalogue;
    const date = f.date ?? new Date();
    if (new URL(url).pathname === '/robots.txt' && new URL(url).search === '') {
      c.putRobots(new URL(url).origin, { http_status: f.http.status, body: f.http.payload.toString('utf8'), error: null });
      return { kind: 'copied' };
    }
    let payload = f.http.payload;
    let payloadPlace: RecordPlace | null = place;
    if (f.type === 'revisit') {
      const original = this.originalOf(f);
      if (original?.place === undefined) return { kind: 'problem', why: `a revisit of ${f.uri} whose original is in none of the imported files` };
      payloadPlace = original.place;
      try {
        payload = await readResponsePayload(this.archive.warcDir, original.place);
      } catch (e) {
        if (e instanceof WarcError) return { kind: 'problem', why: `a revisit of ${f.uri} whose original cannot be read: ${e.message}` };
        throw e;
      }
    }
    const digest = warcDigest([payload]);
    if (f.type === 'response' && payload.length > 0 && f.recordId !== null) {
      const first: PayloadCapture = { url, date, recordId: f.recordId, place };
      // Harvest's own digest, for a later re-crawl; the record's own, for the import's revisits.
      c.putCapture(digest, first);
      if (f.payloadDigest !== null && f.payloadDigest !== digest) c.putCapture(f.payloadDigest, first);
    }
    const h = responseHeaders(f.http);
    // A server-not-modified revisit stands for its original's answer.
    const status = f.type === 'revisit' && f.http.status === 304 ? 200 : f.http.status;
    const row = this.rowFor(url);
    const prev = c.previousCapture(row.id);
    const outcome: FetchOutcome = {
      state: 'http-error',
      httpStatus: status,
      contentType: h.contentType,
      bytes: payload.length,
      localPath: null,
      redirectToId: null,
      error: null,
      title: null,
      fetchedAt: date.toISOString(),
    };
    let textDigest: string | null = null;
    if (status >= 300 && status < 400 && h.location !== null) {
      const target = canonicalize(h.location, url);
      outcome.state = 'redirect';
      outcome.redirectToId = target === null ? null : this.rowFor(target).id;
      if (target === null) outcome.error = `unusable redirect target: ${h.location.slice(0, 200)}`;
    } else if (status >= 200 && status < 300) {
      const saved = await this.save(row, payload, h.contentType, h.contentEncoding, payloadPlace, date);
      if (typeof saved === 'string') {
        outcome.state = 'failed';
        outcome.error = saved;
      } else {
        outcome.state = 'archived';
        outcome.localPath = saved.localPath;
        outcome.title = saved.title;
        textDigest = saved.textDigest;
      }
    } else outcome.error = `HTTP ${f.http.status}${f.http.statusText ? ` ${f.http.statusText}` : ''}`;
    c.recordOutcome(row, outcome);
    c.putUrlCapture({
      urlId: row.id,
      capture: c.currentCapture(),
      outcome: compareCapture(prev, { httpStatus: status, payloadDigest: digest, textDigest, notModified: false }),
      httpStatus: status,
      contentType: h.contentType,
      bytes: payload.length,
      payloadDigest: digest,
      textDigest,
      localPath: outcome.localPath,
      etag: h.etag,
      lastModified: h.lastModified,
      record: payloadPlace,
      contentEncoding: h.contentEncoding,
      fetchedAt: date.toISOString(),
      timing: null,
    });
    return { kind: 'catalogued' };
  }

  /** The original of a revisit: by payload digest, else the last capture of the URL it names. */
  private originalOf(f: RecordFacts): PayloadCapture | null {
    const c = this.archive.catalogue;
    const byDigest = f.payloadDigest === null ? null : c.captureByDigest(f.payloadDigest);
    if (byDigest !== null) return byDigest;
    const uri = f.refersToUri === null ? null : canonicalize(f.refersToUri);
    const last = uri === null ? undefined : c.capturesOf(uri).filter((k) => k.record !== null).at(-1);
    return last === undefined ? null : { url: uri!, date: new Date(last.fetchedAt), recordId: '', place: last.record! };
  }

  /**
   * Saves a 2xx answer: a document is parsed (title, text, text digest) and its original's place
   * kept for the finishing pass; any other file is written to the mirror now. Returns why it could
   * not be, as a failed URL's error.
   */
  private async save(
    row: UrlRow,
    payload: Buffer,
    contentType: string | null,
    contentEncoding: string | null,
    place: RecordPlace | null,
    date: Date,
  ): Promise<{ localPath: string; title: string | null; textDigest: string | null } | string> {
    const c = this.archive.catalogue;
    let body: Buffer;
    try {
      body = await decodeContent(payload, contentEncoding, this.archive.job.fetch.maxResponseBytes);
    } catch (e) {
      if (e instanceof FetchError) return e.message;
      throw e;
    }
    const localPath = localPathFor(row.url, contentType);
    const kind = documentKind(contentType, row.url);
    const fetchedAt = date.toISOString();
    const capture = c.currentCapture();
    if (kind !== 'other') {
      const doc = await this.pool.prepare({ kind, body, url: row.url, contentType, packOriginal: place === null, text: 'reply', textDigest: kind === 'html' });
      this.pool.discard(doc);
      c.putOriginal(row.id, contentType, place === null ? { packed: doc.original! } : { record: place, contentEncoding });
      if (kind === 'html' && doc.text !== null) this.index.add({ urlId: row.id, url: row.url, capture, kind: 'html', fetchedAt, text: doc.text });
      return { localPath, title: doc.title, textDigest: doc.textDigest };
    }
    const failure = await this.pool.write(localPath, body);
    if (failure !== null) return `cannot save as ${localPath}: ${failure.code}`;
    const textKind = textKindOf(contentType, row.url);
    if (textKind === 'pdf' || textKind === 'text') {
      const text = await this.pool.fileText(textKind, body, contentType);
      if (text !== null) this.index.add({ urlId: row.id, url: row.url, capture, kind: textKind, fetchedAt, text });
    }
    return { localPath, title: null, textDigest: null };
  }

  /** The URL's row, made part of the current capture (a row of an earlier one is met again). */
  private rowFor(url: string): UrlRow {
    const c = this.archive.catalogue;
    const admission = {
      depth: this.seeds.has(url) ? 0 : 1,
      state: 'queued' as const,
      requisite: false,
      parentId: null,
      via: 'import',
      typeHint: null,
      redirectHops: 0,
      skipReason: null,
    };
    const existing = c.lookup(url);
    if (existing === undefined) return c.insert({ url, site: new URL(url).origin, ...admission });
    if (existing.capture < c.currentCapture()) c.readmit(existing, admission);
    return existing;
  }
}
