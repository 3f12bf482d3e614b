import type { ParsedArgs } from '../../shared/contract.js';
import type { QaReport } from '../../shared/report.js';
import type { SearchHitRow, SearchReply, SnippetPart } from '../../shared/search.js';
import { collectReport } from '../engine/report/collect.js';
import { queryHighlights } from '../engine/store/searchQuery.js';
import { MARK_END, MARK_START, SearchError, TextIndex, type SearchHit } from '../engine/store/textIndex.js';
import { HostError } from './hostError.js';
import { openArchive } from './jobRules.js';
import type { JobService } from './jobService.js';

/**
 * The app's full-text search and QA report: `harvest search` and `harvest report` behind commands.
 * The text index is its own file, readable while a crawl writes it, so searching never waits for
 * (or goes through) a running crawl; only the hits' mirror paths come from the catalogue.
 */

/** A snippet's runs of text, the matched words marked: the renderer draws them as text, never as markup. */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let mark = false;
  for (const piece of snippet.split(new RegExp(`([${MARK_START}${MARK_END}])`))) {
    if (piece === MARK_START) mark = true;
    else if (piece === MARK_END) mark = false;
    else if (piece !== '') parts.push({ text: piece, mark });
  }
  return parts;
}

/**
 * Searches each archive's index and merges the hits by score, best first. BM25 scores of different
 * indexes are not strictly comparable (each weighs words by its own collection), so across archives
 * the order is approximate; within one it is the index's own.
 */
export async function searchArchives(jobs: JobService, a: ParsedArgs<'archives.search'>): Promise<SearchReply> {
  const ids = [...new Set(a.ids)];
  const archives = ids.map((id) => jobs.get(id));
  const unindexed: SearchReply['unindexed'] = [];
  const found: { jobId: string; hit: SearchHit }[] = [];
  let total = 0;
  let ranked = 0;
  // One archive pages in its index; several must each give their best offset + limit to merge.
  const perArchive = ids.length === 1 ? { limit: a.limit, offset: a.offset } : { limit: a.offset + a.limit, offset: 0 };
  for (const job of archives) {
    const index = TextIndex.openReadonly(job.archiveDir);
    if (index === null) {
      unindexed.push({ jobId: job.id, name: job.job.name });
      continue;
    }
    try {
      const result = index.search(a.query, { ...perArchive, ...(a.kind !== undefined && { kind: a.kind }) });
      total += result.total;
      ranked += result.ranked;
      for (const hit of result.hits) found.push({ jobId: job.id, hit });
    } catch (e) {
      if (e instanceof SearchError) throw new HostError('invalid-query', e.message);
      throw e;
    } finally {
      index.close();
    }
  }
  const page = ids.length === 1 ? found : found.sort((x, y) => y.hit.score - x.hit.score).slice(a.offset, a.offset + a.limit);
  const localPaths = new Map<string, string | null>();
  for (const jobId of ids) {
    const urls = page.filter((f) => f.jobId === jobId).map((f) => f.hit.url);
    if (urls.length === 0) continue;
    const paths = await jobs.query(jobId, { kind: 'localPaths', urls });
    urls.forEach((u, i) => localPaths.set(`${jobId} ${u}`, paths[i] ?? null));
  }
  const hits: SearchHitRow[] = page.map((f) => hitRow(f.jobId, f.hit, localPaths.get(`${f.jobId} ${f.hit.url}`) ?? null));
  return { total, ranked, hits, terms: queryHighlights(a.query), unindexed };
}

function hitRow(jobId: string, h: SearchHit, localPath: string | null): SearchHitRow {
  return {
    jobId,
    url: h.url,
    title: h.title,
    kind: h.kind,
    capture: h.capture,
    capturedAt: h.fetchedAt,
    snippet: snippetParts(h.snippet),
    score: h.score,
    localPath,
  };
}

/** The QA report of an archive whose crawl is not running (it reads the catalogue and hashes every WARC file). */
export async function archiveReport(jobs: JobService, id: string): Promise<QaReport> {
  const job = jobs.get(id);
  if (job.status === 'running' || job.status === 'pausing') {
    throw new HostError('conflict', `the QA report of "${job.job.name}" is made when its crawl is not running: pause it or wait until it finishes`);
  }
  const archive = openArchive(job.archiveDir, false);
  try {
    return await collectReport(archive);
  } finally {
    archive.close();
  }
}
