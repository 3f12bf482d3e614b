import { createWriteStream } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { ImportInputError } from './errors.js';
import { recordFacts } from './recordFacts.js';
import { readWarcRecords } from './warcRecords.js';

/** One WARC file to import, with what decides its capture. */
export interface WarcInput {
  path: string;
  /** How reports name it: the file, or `<wacz>!archive/<name>`. */
  label: string;
  bytes: number;
  /** Files with the same group are one capture: a WACZ, a warcinfo isPartOf, else the file. */
  group: string;
  /** The date of its first dated record; null when it has none. */
  firstDate: Date | null;
  /** Its first HTML-ish page answer (a WACZ's first listed page): a seed of the imported archive. */
  firstPage: string | null;
}

/** WARC files, and ARC files (read as WARC records: see arcRecords.ts). */
const WARC_NAME = /\.(warc|arc)(\.gz)?$/i;
const WACZ_NAME = /\.wacz$/i;
/** Records read to find a file's date, warcinfo and first page. */
const SURVEY_RECORDS = 64;

/** Refuses inputs that are missing or hold nothing to import, before an archive folder is made for them. */
export async function checkInputs(inputs: readonly string[]): Promise<void> {
  for (const input of inputs) {
    const s = await stat(input).catch(() => null);
    if (s === null) throw new ImportInputError(`${input}: no such file or folder`);
    if (s.isDirectory() && !(await readdir(input)).some((n) => WARC_NAME.test(n) || WACZ_NAME.test(n))) {
      throw new ImportInputError(`${input}: the folder holds no .warc, .warc.gz, .arc, .arc.gz or .wacz file`);
    }
  }
}

/**
 * The WARC files the inputs name: files as given, a folder's WARC and WACZ files (not its subfolders)
 * in name order, and each WACZ's WARC files, copied out to `workDir` as they are. The inputs have
 * passed checkInputs.
 */
export async function collectInputs(inputs: readonly string[], workDir: string): Promise<WarcInput[]> {
  const out: WarcInput[] = [];
  for (const input of inputs) {
    const abs = path.resolve(input);
    const files = (await stat(abs)).isDirectory()
      ? (await readdir(abs)).filter((n) => WARC_NAME.test(n) || WACZ_NAME.test(n)).sort().map((n) => path.join(abs, n))
      : [abs];
    for (const file of files) {
      if (WACZ_NAME.test(file)) out.push(...(await fromWacz(file, workDir)));
      else out.push(await survey(file, file, file));
    }
  }
  return out;
}

async function survey(file: string, label: string, group: string, firstPage: string | null = null): Promise<WarcInput> {
  let firstDate: Date | null = null;
  let page = firstPage;
  let partOf: string | null = null;
  let n = 0;
  for await (const item of readWarcRecords(file)) {
    if (++n > SURVEY_RECORDS || (firstDate !== null && page !== null)) break;
    if (item.kind !== 'record') continue;
    const f = recordFacts(item.content);
    if (f === null) continue;
    firstDate ??= f.date;
    if (f.type === 'warcinfo') partOf ??= f.info?.get('ispartof') ?? null;
    if (page === null && f.type === 'response' && f.http !== null && f.uri !== null && /^https?:/i.test(f.uri) && !/\/robots\.txt$/i.test(f.uri)) {
      if (f.http.status >= 200 && f.http.status < 400) page = f.uri;
    }
  }
  const bytes = (await stat(file)).size;
  return { path: file, label, bytes, group: partOf !== null && group === file ? `isPartOf ${partOf}` : group, firstDate, firstPage: page };
}

/** A WACZ's archive/ WARC files, copied out to `workDir`, with the first page its pages.jsonl lists. */
async function fromWacz(file: string, workDir: string): Promise<WarcInput[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (e) {
    throw new ImportInputError(`${file}: not a readable WACZ (${(e as Error).message})`);
  }
  try {
    const warcs: yauzl.Entry[] = [];
    let pages: yauzl.Entry | null = null;
    for await (const entry of zip.eachEntry()) {
      if (/^archive\/[^/]+\.warc(\.gz)?$/i.test(entry.fileName)) warcs.push(entry);
      if (entry.fileName === 'pages/pages.jsonl') pages = entry;
    }
    if (warcs.length === 0) throw new ImportInputError(`${file}: the WACZ holds no archive/*.warc(.gz) file`);
    const firstPage = pages === null ? null : await firstListedPage(zip, pages);
    const dir = path.join(workDir, `wacz-${path.basename(file).replace(/[^A-Za-z0-9._-]/g, '_')}-${Date.now()}`);
    await mkdir(dir, { recursive: true });
    const out: WarcInput[] = [];
    for (const entry of warcs) {
      const target = path.join(dir, path.basename(entry.fileName));
      await pipeline((await zip.openReadStreamPromise(entry)) as NodeJS.ReadableStream, createWriteStream(target));
      out.push(await survey(target, `${file}!${entry.fileName}`, file, firstPage));
    }
    return out;
  } finally {
    zip.close();
  }
}

async function firstListedPage(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  // The first lines are enough: a header line, then pages (seeds first, as Harvest and Browsertrix write them).
  for await (const c of (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) {
    chunks.push(c);
    bytes += c.length;
    if (bytes > 256 * 1024) break;
  }
  for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
    try {
      const p = JSON.parse(line) as { url?: unknown };
      if (typeof p.url === 'string' && /^https?:/i.test(p.url)) return p.url;
    } catch {
      // a header or a cut-off last line
    }
  }
  return null;
}
