import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Archive } from '../store/archive.js';
import type { Catalogue, LinkRow } from '../store/catalogue.js';
import { decodeContent } from '../fetch/decompress.js';
import { FetchError } from '../fetch/errors.js';
import { WarcError } from '../warc/errors.js';
import { readResponsePayload } from '../warc/readResponse.js';
import type { RecordPlace } from '../warc/types.js';
import type { DocumentPool } from './documentPool.js';
import { documentKind, finalTarget, unpackOriginal } from './documents.js';
import { writeEntryPage } from './entryPage.js';

export { writeEntryPage };

/**
 * The rewrite pass gives the event loop a turn at least this often, so progress ticks and pause
 * requests get through while it runs.
 */
const SLICE_MS = 20;

/** URL ids whose documents are checked in one query. */
const CHECK_IDS = 512;

/** Documents being rewritten at once: enough to keep every document worker busy. */
const REWRITES_AT_ONCE = 8;

/**
 * Told how far the rewrite pass is, in URL ids checked of all ids: at its start, after each
 * slice, and at its end.
 */
export type FinalizeProgress = (done: number, total: number) => void;

/**
 * Brings the mirror to its final form once every URL has an outcome: redirects point at the file
 * their chain ends at, and every saved document whose references were guessed while their targets
 * were still queued is rewritten from its original bytes where a guess turned out wrong (a 404,
 * a redirect, another content type). Returns how many documents were rewritten.
 */
export async function finalizeMirror(
  archive: Archive,
  pool: DocumentPool,
  onProgress: FinalizeProgress = () => {},
  /** Rewrite every document, not only those with a wrong guess: a catalogue that kept no links (a cluster's). */
  opts: { every?: boolean } = {},
): Promise<number> {
  const c = archive.catalogue;
  c.transaction(() => {
    // What an earlier capture had and this one did not reach is removed from this one (its file stays).
    c.markUnreachedRemoved(new Date());
    markRedirectLoops(c, c.resolveRedirectChains());
  });
  const total = c.maxUrlId();
  onProgress(0, total);
  let rewritten = 0;
  const running = new Set<Promise<void>>();
  let failed: { error: unknown } | null = null;
  let sliceStart = Date.now();
  const nextSlice = async (done: number): Promise<void> => {
    if (Date.now() - sliceStart < SLICE_MS) return;
    await nextTurn();
    onProgress(done, total);
    sliceStart = Date.now();
  };
  // Rewriting a document changes only its own links, so ranges checked later are unaffected.
  for (let from = 1; from <= total; from += CHECK_IDS) {
    const to = Math.min(total, from + CHECK_IDS - 1);
    for (const id of opts.every ? range(from, to) : c.staleDocumentIds(from, to)) {
      const task: Promise<void> = rewriteDocument(archive, pool, id)
        .then((did) => void (rewritten += did ? 1 : 0))
        .catch((error: unknown) => void (failed ??= { error }))
        .finally(() => running.delete(task));
      running.add(task);
      if (running.size >= REWRITES_AT_ONCE) await Promise.race(running);
      if (failed !== null) break;
      await nextSlice(id);
    }
    if (failed !== null) break;
    await nextSlice(to);
  }
  await Promise.all(running);
  if (failed !== null) throw (failed as { error: unknown }).error;
  onProgress(total, total);
  await writeEntryPage(archive);
  return rewritten;
}

function* range(from: number, to: number): Generator<number> {
  for (let id = from; id <= to; id++) yield id;
}

function markRedirectLoops(c: Catalogue, unresolved: { id: number; redirect_to_id: number | null }[]): void {
  const next = new Map(unresolved.map((r) => [r.id, r.redirect_to_id]));
  for (const start of next.keys()) {
    const seen = new Set<number>();
    let cur: number | null | undefined = start;
    while (cur !== null && cur !== undefined && !seen.has(cur)) {
      seen.add(cur);
      cur = next.get(cur);
    }
    if (cur === start) c.markError(start, 'redirect loop');
  }
}

/** Rewrites one document from its original; false when the URL is no saved document with one. */
async function rewriteDocument(archive: Archive, pool: DocumentPool, id: number): Promise<boolean> {
  const c = archive.catalogue;
  const row = c.get(id);
  const original = c.getOriginal(id);
  if (!row || row.state !== 'archived' || row.local_path === null || !original) return false;
  const kind = documentKind(row.content_type, row.url);
  if (kind === 'other') return false;
  let body: Buffer;
  try {
    body = 'packed' in original ? unpackOriginal(original.packed) : await readOriginal(archive, original.record, original.contentEncoding);
  } catch (e) {
    if (!(e instanceof FetchError || (e instanceof WarcError && e.code === 'damaged'))) throw e;
    // The copy keeps the references it was first written with; the URL's log says why.
    c.markError(id, `original not rewritten: ${e.message}`);
    return false;
  }
  const doc = await pool.prepare({ kind, body, url: row.url, contentType: row.content_type, packOriginal: false });
  const links: LinkRow[] = [];
  const written: (string | null)[] = [];
  try {
    for (const link of doc.links) {
      const target = link.canonical === null ? undefined : c.lookup(link.canonical);
      const place = target ? finalTarget(target) : null;
      if (target && target.state !== 'archived') links.push({ toId: target.id, kind: link.kind, text: link.text || null, written: place });
      written.push(place);
    }
  } catch (e) {
    pool.discard(doc);
    throw e;
  }
  const failure = await pool.save(doc, { localPath: row.local_path, written });
  if (failure !== null) throw Object.assign(new Error(`cannot rewrite ${row.local_path}: ${failure.message}`), { code: failure.code });
  c.transaction(() => c.replaceLinks(id, links));
  return true;
}

/** A document's original bytes read back from the WARC, its content encoding undone as the fetcher did. */
export async function readOriginal(archive: Archive, place: RecordPlace, contentEncoding: string | null): Promise<Buffer> {
  const payload = await readResponsePayload(archive.warcDir, place);
  return decodeContent(payload, contentEncoding, archive.job.fetch.maxResponseBytes);
}
