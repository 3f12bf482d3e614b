import { readdirSync, rmdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { SkipReason, UrlState } from '../../../shared/crawl.js';
import { HARVEST_VERSION } from '../../../shared/job.js';
import { Archive } from '../store/archive.js';
import { MIRROR_DIR, WARC_DIR } from '../store/archiveFolder.js';
import type { UrlCapture } from '../store/catalogueTypes.js';
import { OPEN_SUFFIX } from '../warc/fileNames.js';
import { WarcWriter } from '../warc/writer.js';
import { ClusterWorkerError } from './errors.js';
import { copyFocus } from './focusArchive.js';
import { readHarvest } from './schema.js';

/** Rows read from PostgreSQL at a time. */
const PAGE = 5_000;

interface PgUrl {
  id: string;
  url: string;
  site: string;
  depth: number;
  state: UrlState | 'leased';
  requisite: boolean;
  parent_id: string | null;
  via: string | null;
  type_hint: string | null;
  redirect_hops: number;
  skip_reason: SkipReason | null;
  error: string | null;
  http_status: number | null;
  content_type: string | null;
  bytes: string | null;
  local_path: string | null;
  redirect_to_id: string | null;
  title: string | null;
  fetched_at: Date | null;
  score: number | null;
}

/**
 * Finishes the WARC files of workers that are no longer running: a file a killed worker left open
 * is cut back at its last whole record (as a local resume does) and given its finished name. A live
 * worker's open file is refused: it is still being written.
 */
export async function finishWorkerWarcs(db: pg.Pool, store: string): Promise<string[]> {
  const dir = path.join(store, WARC_DIR);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const open = entries.filter((e) => e.endsWith(OPEN_SUFFIX));
  const workers = (await db.query<{ id: string; state: string }>('SELECT id, state FROM workers')).rows;
  const finished: string[] = [];
  for (const w of workers) {
    const mine = open.filter((e) => e.startsWith(`${w.id}-`) && /^\d{17}-\d{5,}\.warc\.gz/.test(e.slice(w.id.length + 1)));
    if (mine.length === 0) continue;
    if (w.state === 'live') throw new ClusterWorkerError(`worker '${w.id}' is still running (its WARC file ${mine[0]} is open): export once the harvest has finished, or after stopping it`);
    const writer = await WarcWriter.open({ dir, prefix: w.id, software: `Harvest/${HARVEST_VERSION}` });
    await writer.close();
    finished.push(...mine);
  }
  return finished;
}

/** What a cluster harvest does not keep of a URL's answer (it has no earlier capture to compare with). */
const NO_HISTORY = { payloadDigest: null, textDigest: null, etag: null, lastModified: null, record: null, contentEncoding: null, timing: null } as const;

/**
 * The cluster harvest as a local archive folder in `dir`: a SQLite catalogue with every URL and its
 * outcome (what the exporters, `harvest stats` and `harvest list` read), its warc/ and mirror/
 * links to the store's WARC files of every worker and to the shared mirror; a focused harvest's
 * verdicts and extracted fields in its focus tables. URLs still leased are queued in it.
 */
export async function clusterArchive(db: pg.Pool, store: string, dir: string): Promise<Archive> {
  const harvest = await readHarvest(db);
  const archive = Archive.create(dir, harvest.job);
  try {
    symlinkSync(path.resolve(store, WARC_DIR), archive.warcDir, 'dir');
    // The shared mirror stands in for the archive's own (empty) one.
    rmdirSync(archive.mirror.root);
    symlinkSync(path.resolve(store, MIRROR_DIR), archive.mirror.root, 'dir');
    archive.mirror.adoptRoot();
    const c = archive.catalogue;
    const ids = new Map<string, number>();
    const later: { id: number; redirectTo: string | null; fetchedAt: string | null; answer: Pick<UrlCapture, 'httpStatus' | 'contentType' | 'bytes' | 'localPath'> }[] = [];
    c.transaction(() => {
      c.setMeta('started_at', new Date().toISOString());
      c.ensureCapture(new Date());
    });
    for (let after = '0'; ; ) {
      const rows = (await db.query<PgUrl>('SELECT * FROM urls WHERE id > $1 ORDER BY id LIMIT $2', [after, PAGE])).rows;
      if (rows.length === 0) break;
      after = rows.at(-1)!.id;
      c.transaction(() => {
        for (const r of rows) {
          const row = c.insert({
            url: r.url,
            site: r.site,
            depth: r.depth,
            state: r.state === 'skipped' ? 'skipped' : 'queued',
            requisite: r.requisite,
            parentId: r.parent_id === null ? null : (ids.get(r.parent_id) ?? null),
            via: r.via,
            typeHint: r.type_hint,
            redirectHops: r.redirect_hops,
            skipReason: r.skip_reason,
            score: r.score,
          });
          ids.set(r.id, row.id);
          if (r.state === 'skipped' && r.error !== null) c.skip(row, r.skip_reason ?? 'scope', r.error);
          if (r.state === 'queued' || r.state === 'leased' || r.state === 'skipped') continue;
          c.recordOutcome(row, {
            state: r.state,
            httpStatus: r.http_status,
            contentType: r.content_type,
            bytes: r.bytes === null ? null : Number(r.bytes),
            localPath: r.local_path,
            redirectToId: null,
            error: r.error,
            title: r.title,
          });
          later.push({
            id: row.id,
            redirectTo: r.redirect_to_id,
            fetchedAt: r.fetched_at?.toISOString() ?? null,
            answer: { httpStatus: r.http_status, contentType: r.content_type, bytes: r.bytes === null ? null : Number(r.bytes), localPath: r.local_path },
          });
        }
      });
    }
    if (harvest.job.template !== null) await copyFocus(db, c, ids);
    const unfinished = await db.query<{ p: boolean }>(`SELECT EXISTS (SELECT 1 FROM urls WHERE state IN ('queued', 'leased')) AS p`);
    const fix = c.sqlite.prepare('UPDATE urls SET redirect_to_id = ?, fetched_at = ? WHERE id = ?');
    c.transaction(() => {
      for (const l of later) {
        fix.run(l.redirectTo === null ? null : (ids.get(l.redirectTo) ?? null), l.fetchedAt, l.id);
        // The harvest is the archive's one capture: its rows are what pages.jsonl lists.
        if (l.fetchedAt !== null) c.putUrlCapture({ ...NO_HISTORY, ...l.answer, urlId: l.id, capture: c.currentCapture(), outcome: l.answer.httpStatus === null ? 'failed' : 'new', fetchedAt: l.fetchedAt });
      }
      c.setMeta('state', unfinished.rows[0]!.p ? 'paused' : 'finished');
    });
    return archive;
  } catch (e) {
    archive.close();
    throw e;
  }
}
