import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { hashStream, isManifestAlgorithm } from './hashing.js';
import { checkIndexAndPages } from './verifyIndex.js';
import { checkRecordsAgainstIndex } from './verifyIndexDeep.js';
import { checkWarcRecords } from './warcRecordCheck.js';
import { VerifyInputError, type VerifyOptions, type VerifyProblem, type VerifyReport } from './verifyReport.js';

export const DATAPACKAGE = 'datapackage.json';
export const DATAPACKAGE_DIGEST = 'datapackage-digest.json';

interface Resource {
  path: string;
  hash: string;
  bytes?: number;
}

/** WARC files in a WACZ, which `deep` reads record by record. */
const WARC_RESOURCE = /^archive\/.+\.warc(\.gz)?$/;

/**
 * Checks a WACZ (https://specs.webrecorder.net/wacz/1.1.1/): every resource datapackage.json lists
 * is in the ZIP with that hash and size, nothing else is, and datapackage-digest.json (if there)
 * holds the hash of datapackage.json itself; then its index and page list as replay tools use them
 * (see checkIndexAndPages). With `deep`, every record of its WARC files is read back in the same
 * pass (see checkWarcRecords), and every index line against the record it points at
 * (checkRecordsAgainstIndex). A file that starts like a ZIP but cannot be opened
 * as one (cut short, its central directory damaged) is a damaged WACZ, reported as a problem.
 */
export async function verifyWacz(file: string, opts: VerifyOptions = {}): Promise<VerifyReport> {
  const target = path.resolve(file);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(target, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (e) {
    if (!(await startsLikeZip(target))) {
      throw new VerifyInputError(`${target} is neither a bag folder nor a WACZ/ZIP file (${(e as Error).message})`);
    }
    const detail = `a ZIP that cannot be read, probably cut short or damaged: ${(e as Error).message}`;
    return report(target, [{ kind: 'invalid', path: path.basename(target), detail }], 0, 0, opts.deep ? 0 : undefined);
  }
  try {
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) {
      if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
    }
    const problems: VerifyProblem[] = [];
    const readAll = async (entry: yauzl.Entry): Promise<Buffer> => {
      const chunks: Buffer[] = [];
      for await (const c of (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) chunks.push(c);
      return Buffer.concat(chunks);
    };

    const pkgEntry = entries.get(DATAPACKAGE);
    if (pkgEntry === undefined) {
      problems.push({ kind: 'missing', path: DATAPACKAGE, detail: 'a WACZ lists its files in datapackage.json' });
      return report(target, problems, 0, 0, opts.deep ? 0 : undefined);
    }
    const pkgBytes = await readAll(pkgEntry);
    const resources = parseResources(pkgBytes, problems);
    checkDigestFile(entries.has(DATAPACKAGE_DIGEST) ? await readAll(entries.get(DATAPACKAGE_DIGEST)!) : null, pkgBytes, problems);

    const totalBytes = resources.reduce((n, r) => n + (entries.get(r.path)?.uncompressedSize ?? 0), 0);
    let doneBytes = 0;
    let files = 0;
    let records = 0;
    const listed = new Set<string>([DATAPACKAGE, DATAPACKAGE_DIGEST]);
    for (const r of resources) {
      listed.add(r.path);
      const entry = entries.get(r.path);
      if (entry === undefined) {
        problems.push({ kind: 'missing', path: r.path, detail: `listed in ${DATAPACKAGE}` });
        continue;
      }
      const [alg, expected] = splitHash(r.hash);
      if (alg === null) {
        problems.push({ kind: 'invalid', path: r.path, detail: `unsupported hash '${r.hash}' in ${DATAPACKAGE}` });
        continue;
      }
      const deep = opts.deep === true && WARC_RESOURCE.test(r.path);
      try {
        const got = await hashStream((await zip.openReadStreamPromise(entry)) as Readable, [alg], {
          ...(opts.signal && { signal: opts.signal }),
          onBytes: (n) => {
            // Counted apart from the call: `?.` would skip the sum with no listener.
            doneBytes += n;
            opts.onProgress?.({ phase: opts.deep ? 'hashing, reading WARC records' : 'hashing', doneBytes, totalBytes });
          },
          ...(deep && {
            consume: async (bytes) => {
              const checked = await checkWarcRecords(bytes, r.path, r.path.endsWith('.gz'));
              records += checked.records;
              problems.push(...checked.problems);
            },
          }),
        });
        files++;
        if (got.digests[alg] !== expected) {
          problems.push({ kind: 'altered', path: r.path, detail: `${alg} is ${got.digests[alg]}, ${DATAPACKAGE} says ${expected}` });
        } else if (r.bytes !== undefined && got.bytes !== r.bytes) {
          problems.push({ kind: 'altered', path: r.path, detail: `${got.bytes} bytes, ${DATAPACKAGE} says ${r.bytes}` });
        }
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        problems.push({ kind: 'altered', path: r.path, detail: `unreadable: ${(e as Error).message}` });
      }
    }
    for (const name of entries.keys()) {
      if (!listed.has(name)) problems.push({ kind: 'unlisted', path: name, detail: `in the ZIP but not in ${DATAPACKAGE}` });
    }
    // A bare package of files (no index, no page list) is checked by its hashes alone.
    if ([...entries.keys()].some((n) => n.startsWith('indexes/') || n.startsWith('pages/'))) {
      opts.onProgress?.({ phase: 'checking the index and pages', doneBytes, totalBytes });
      const index = await checkIndexAndPages({ entries, stream: async (e) => (await zip.openReadStreamPromise(e)) as Readable }, opts.deep === true);
      // A listed index missing from the ZIP is reported once, above.
      problems.push(...index.problems.filter((p) => !problems.some((q) => q.kind === p.kind && q.path === p.path)));
      if (opts.deep) problems.push(...(await checkRecordsAgainstIndex(target, entries, index.lines, opts.signal)));
    }
    return report(target, problems, files, doneBytes, opts.deep ? records : undefined);
  } finally {
    zip.close();
  }
}

function report(target: string, problems: VerifyProblem[], files: number, bytes: number, records: number | undefined): VerifyReport {
  return { format: 'wacz', target, ok: problems.length === 0, files, bytes, ...(records !== undefined && { records }), problems };
}

/** A ZIP's first bytes: a local file header, or the end record of an empty ZIP. */
async function startsLikeZip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(4);
    const { bytesRead } = await fh.read(b, 0, 4, 0);
    return bytesRead === 4 && (b.readUInt32LE(0) === 0x04034b50 || b.readUInt32LE(0) === 0x06054b50);
  } finally {
    await fh.close();
  }
}

/** 'sha256:<hex>' -> ['sha256', '<hex>'], or [null, ''] for what cannot be checked. */
function splitHash(h: string): [alg: 'sha256' | 'sha512' | 'sha1' | 'md5' | null, hex: string] {
  const m = /^([a-z0-9-]+):([0-9a-fA-F]+)$/.exec(h);
  const alg = m?.[1]?.replace('-', '') ?? '';
  return m && isManifestAlgorithm(alg) ? [alg, m[2]!.toLowerCase()] : [null, ''];
}

function parseResources(pkg: Buffer, problems: VerifyProblem[]): Resource[] {
  let json: unknown;
  try {
    json = JSON.parse(pkg.toString('utf8'));
  } catch (e) {
    problems.push({ kind: 'invalid', path: DATAPACKAGE, detail: `not JSON: ${(e as Error).message}` });
    return [];
  }
  const resources = (json as { resources?: unknown }).resources;
  if (!Array.isArray(resources)) {
    problems.push({ kind: 'invalid', path: DATAPACKAGE, detail: 'no "resources" list' });
    return [];
  }
  const out: Resource[] = [];
  for (const r of resources as unknown[]) {
    const { path: p, hash, bytes } = (r ?? {}) as { path?: unknown; hash?: unknown; bytes?: unknown };
    if (typeof p !== 'string' || typeof hash !== 'string') {
      problems.push({ kind: 'invalid', path: DATAPACKAGE, detail: `resource without path or hash: ${JSON.stringify(r)}` });
      continue;
    }
    out.push({ path: p, hash, ...(typeof bytes === 'number' && { bytes }) });
  }
  return out;
}

/** The digest file is optional in WACZ 1.1.1 (signing builds on it); when present it must match. */
function checkDigestFile(digestFile: Buffer | null, pkg: Buffer, problems: VerifyProblem[]): void {
  if (digestFile === null) return;
  let hash: unknown;
  try {
    hash = (JSON.parse(digestFile.toString('utf8')) as { hash?: unknown }).hash;
  } catch (e) {
    problems.push({ kind: 'invalid', path: DATAPACKAGE_DIGEST, detail: `not JSON: ${(e as Error).message}` });
    return;
  }
  const [alg, expected] = typeof hash === 'string' ? splitHash(hash) : [null, ''];
  if (alg === null) {
    problems.push({ kind: 'invalid', path: DATAPACKAGE_DIGEST, detail: `unsupported hash ${JSON.stringify(hash)}` });
    return;
  }
  const actual = createHash(alg).update(pkg).digest('hex');
  if (actual !== expected) {
    problems.push({ kind: 'altered', path: DATAPACKAGE, detail: `${alg} is ${actual}, ${DATAPACKAGE_DIGEST} says ${expected}` });
  }
}
