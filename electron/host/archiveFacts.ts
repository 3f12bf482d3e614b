import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CrawlCounts } from '../../shared/crawl.js';
import { Archive } from '../engine/store/archive.js';
import { CATALOGUE_FILE } from '../engine/store/archiveFolder.js';
import { readStats } from '../engine/store/stats.js';

/** What is known of an archive's contents without opening it. */
export interface Facts {
  counts: CrawlCounts | null;
  durationMs: number;
  pages: number;
  startedAt: string | null;
  finishedAt: string | null;
  /** The capture the figures are of (the latest); null before the first run. */
  capture: number | null;
}

const NONE: Facts = { counts: null, durationMs: 0, pages: 0, startedAt: null, finishedAt: null, capture: null };

/** Size and time of the catalogue and its write-ahead log: what changes when any process writes it. */
function catalogueStamp(dir: string): string {
  const base = path.join(dir, CATALOGUE_FILE);
  return [base, `${base}-wal`].map((f) => (existsSync(f) ? `${statSync(f).mtimeMs}:${statSync(f).size}` : '-')).join('|');
}

/** The archive's figures read from its catalogue; null when it cannot be read now (locked, half-made). */
function readFacts(dir: string): Facts | null {
  if (!existsSync(dir)) return NONE;
  try {
    const a = Archive.open(dir, { readonly: true });
    try {
      const s = readStats(a.catalogue);
      const started = s.startedAt !== null;
      const captures = a.catalogue.listCaptures();
      return {
        counts: started ? s.counts : null,
        durationMs: s.durationMs,
        pages: a.catalogue.htmlPagesArchived(),
        startedAt: s.startedAt,
        finishedAt: s.finishedAt,
        capture: captures.length > 0 ? Math.max(...captures.map((c) => c.id)) : null,
      };
    } finally {
      a.close();
    }
  } catch {
    return null;
  }
}

/**
 * Each job's archive figures, read again whenever its catalogue changed on disk, so a capture made
 * by another process (`harvest recrawl`) shows on every screen, not only after a host restart.
 */
export class ArchiveFacts {
  private readonly facts = new Map<string, { facts: Facts; stamp: string }>();

  get(id: string): Facts | undefined {
    return this.facts.get(id)?.facts;
  }

  /** Reads the archive now (after this host's own run, an import, a new job). */
  read(id: string, dir: string): void {
    const stamp = existsSync(dir) ? catalogueStamp(dir) : '';
    this.facts.set(id, { facts: readFacts(dir) ?? this.get(id) ?? NONE, stamp });
  }

  /** A running crawl's latest counters. */
  live(id: string, counts: CrawlCounts, durationMs: number): void {
    const f = this.get(id);
    if (f) {
      f.counts = counts;
      f.durationMs = durationMs;
    }
  }

  /** Reads the archive again if its catalogue changed since the last read; true when the figures did. */
  refresh(id: string, dir: string): boolean {
    const known = this.facts.get(id);
    if (!existsSync(dir)) return false;
    const stamp = catalogueStamp(dir);
    if (known?.stamp === stamp) return false;
    const fresh = readFacts(dir);
    // Unreadable now (another process holds it mid-write): keep the last figures, try again later.
    if (fresh === null) return false;
    this.facts.set(id, { facts: fresh, stamp });
    return JSON.stringify(fresh) !== JSON.stringify(known?.facts);
  }

  delete(id: string): void {
    this.facts.delete(id);
  }
}
