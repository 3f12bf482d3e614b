import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Job } from '../../../shared/job.js';
import { ScopeRules } from '../scope.js';
import type { Catalogue } from '../store/catalogue.js';
import { canonicalize } from '../url/canonical.js';
import { Frontier } from './frontier.js';
import { ProgressMeter } from './progress.js';

/** A seed list that cannot be read or holds a line that is not an http(s) URL; names the file and line. */
export class SeedListError extends Error {
  constructor(
    readonly file: string,
    /** 0 when the error concerns the whole file. */
    readonly line: number,
    detail: string,
  ) {
    super(line > 0 ? `${file}, line ${line}: ${detail}` : `${file}: ${detail}`);
    this.name = 'SeedListError';
  }
}

export interface SeedLine {
  /** Canonical URL. */
  url: string;
  line: number;
}

/** Rows admitted per transaction: large enough to amortise the commit, small enough to keep memory flat. */
const ADMIT_BATCH = 5_000;

/**
 * The URLs of a seed list, one per line (blank lines and `#` comments ignored), read as a stream so a
 * list of millions never sits in memory. Throws SeedListError at the first invalid line.
 */
export async function* readSeedList(file: string): AsyncGenerator<SeedLine> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const raw of lines) {
      line++;
      const text = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
      if (text === '' || text.startsWith('#')) continue;
      yield { url: checkedUrl(file, line, text), line };
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof SeedListError || code === undefined) throw e;
    throw new SeedListError(file, 0, `cannot read the seed list (${code})`);
  } finally {
    lines.close();
    input.destroy();
  }
}

/** The list's first URL (validating up to it); throws SeedListError if the list holds none. */
export async function firstSeedOf(file: string): Promise<string> {
  for await (const { url } of readSeedList(file)) return url;
  throw new SeedListError(file, 0, 'the list holds no URL');
}

function checkedUrl(file: string, line: number, text: string): string {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new SeedListError(file, line, `'${clip(text)}' is not a URL: give an absolute http:// or https:// address`);
  }
  const canonical = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? canonicalize(text) : null;
  if (canonical === null) throw new SeedListError(file, line, `'${clip(text)}' is not an http:// or https:// URL`);
  return canonical;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The seeds a job must name so its scope covers every URL of the list: the given seeds plus each
 * list URL the scope of the seeds so far does not cover. For a list on a few sites this stays a
 * handful of URLs, so the job record stays small however long the list is.
 */
export async function scopeSeedsFor(file: string, seeds: string[], scope: Job['scope']): Promise<string[]> {
  const chosen = [...seeds];
  const modeOnly = { ...scope, include: [], exclude: [] };
  let rules = new ScopeRules(modeOnly, chosen);
  for await (const { url } of readSeedList(file)) {
    if (rules.inScope(url)) continue;
    chosen.push(url);
    rules = new ScopeRules(modeOnly, chosen);
  }
  return chosen;
}

/**
 * Queues every URL of the list as a seed (depth 0) in the archive's catalogue, in batched
 * transactions, before the crawl starts; returns how many lines were admitted.
 */
export async function admitSeedList(file: string, job: Job, catalogue: Catalogue): Promise<number> {
  const meter = new ProgressMeter(catalogue.countByState(), catalogue.countBySkipReason(), catalogue.totalBytes());
  const frontier = new Frontier(job, catalogue, meter, () => {});
  let batch: string[] = [];
  let admitted = 0;
  const flush = (): void => {
    const urls = batch;
    batch = [];
    catalogue.transaction(() => {
      for (const url of urls) {
        frontier.admitSeed(url);
      }
    });
    admitted += urls.length;
  };
  for await (const { url } of readSeedList(file)) {
    batch.push(url);
    if (batch.length >= ADMIT_BATCH) flush();
  }
  flush();
  return admitted;
}
