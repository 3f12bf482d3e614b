import { existsSync, lstatSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseBagInfo } from './bagInfo.js';
import { hashFile, isManifestAlgorithm, type HashOptions } from './hashing.js';
import { parseManifest } from './manifest.js';
import { walkFiles } from './mirrorFiles.js';
import { VerifyInputError, type VerifyOptions, type VerifyProblem, type VerifyReport } from './verifyReport.js';
import { verifyWacz } from './verifyWacz.js';
import { checkWarcRecords } from './warcRecordCheck.js';

const PAYLOAD_PREFIX = 'data/';
/** Files only a bag has at its top: one of them without bagit.txt makes a damaged bag, not a stranger. */
const BAG_FILE = /^((tag)?manifest-[A-Za-z0-9]+\.txt|bag-info\.txt|bagit\.txt)$/;

/** Expected digests of one file, by algorithm, and the manifests that list it. */
type Expected = Map<string, Map<string, string>>;

/**
 * Checks a bag folder against RFC 8493: every file listed in a payload or tag manifest exists and
 * has its listed digest, every payload file is listed, and Payload-Oxum (if given) adds up. A path
 * in a manifest that would leave the bag is reported and never opened. With `deep`, the WACZ and
 * WARC files of the payload are read back record by record as well.
 */
export async function verifyBag(dir: string, opts: VerifyOptions = {}): Promise<VerifyReport> {
  const root = path.resolve(dir);
  const top = (await readdir(root)).sort();
  if (!top.some((n) => BAG_FILE.test(n))) throw new VerifyInputError(`${root} is not a bag (it has no bagit.txt and no manifest)`);
  const problems: VerifyProblem[] = [];
  const invalid = (p: string, detail: string): void => void problems.push({ kind: 'invalid', path: p, detail });

  const bagitTxt = path.join(root, 'bagit.txt');
  if (existsSync(bagitTxt)) {
    const declaration = new Map(safeParseInfo(await readFile(bagitTxt, 'utf8'), 'bagit.txt', invalid));
    if (!declaration.get('BagIt-Version')) invalid('bagit.txt', 'no BagIt-Version');
    const encoding = declaration.get('Tag-File-Character-Encoding') ?? '';
    if (!/^utf-?8$/i.test(encoding)) invalid('bagit.txt', `Tag-File-Character-Encoding is '${encoding}', expected UTF-8`);
  } else problems.push({ kind: 'missing', path: 'bagit.txt', detail: 'every bag declares itself in bagit.txt' });

  const payload: Expected = new Map();
  const tags: Expected = new Map();
  for (const name of top) {
    const m = /^(tag)?manifest-([A-Za-z0-9]+)\.txt$/.exec(name);
    if (!m) continue;
    const alg = m[2]!.toLowerCase();
    if (!isManifestAlgorithm(alg)) {
      invalid(name, `algorithm '${alg}' is not supported`);
      continue;
    }
    let entries;
    try {
      entries = parseManifest(await readFile(path.join(root, name), 'utf8'), name);
    } catch (e) {
      invalid(name, (e as Error).message);
      continue;
    }
    const target = m[1] ? tags : payload;
    for (const e of entries) {
      const rel = e.path.replace(/^\.\//, '');
      if (rel.split('/').some((s) => s === '..' || s === '') || path.isAbsolute(rel)) {
        invalid(name, `path '${e.path}' leaves the bag`);
        continue;
      }
      if (!m[1] && !rel.startsWith(PAYLOAD_PREFIX)) {
        invalid(name, `path '${e.path}' is not under data/`);
        continue;
      }
      const digests = target.get(rel) ?? new Map<string, string>();
      digests.set(alg, e.checksum);
      target.set(rel, digests);
    }
  }
  if (![...top].some((n) => /^manifest-[A-Za-z0-9]+\.txt$/.test(n))) invalid('.', 'no payload manifest (manifest-<algorithm>.txt)');

  // Sizes first, for progress: a walk of names only.
  const dataDir = path.join(root, 'data');
  const payloadFiles: { rel: string; abs: string; size: number }[] = [];
  // Links are never followed: a bag's files are its own, and a link could read any file of the machine.
  if (isLink(dataDir)) invalid('data', 'the payload folder is a symbolic link (not followed)');
  else if (existsSync(dataDir) && statSync(dataDir).isDirectory()) {
    for await (const f of walkFiles(dataDir)) payloadFiles.push({ ...f, rel: `${PAYLOAD_PREFIX}${f.rel}` });
  } else invalid('data', 'the payload folder is missing');
  const tagFiles = [...tags.keys()]
    .filter((rel) => !isLink(path.join(root, rel)) && existsSync(path.join(root, rel)) && statSync(path.join(root, rel)).isFile())
    .map((rel) => ({ rel, abs: path.join(root, rel), size: statSync(path.join(root, rel)).size }));
  const totalBytes = [...payloadFiles, ...tagFiles].reduce((n, f) => n + f.size, 0);

  let doneBytes = 0;
  let files = 0;
  let records = 0;
  const phase = opts.deep ? 'hashing, reading WARC records' : 'hashing';
  const check = async (f: { rel: string; abs: string }, expected: Map<string, string>): Promise<void> => {
    const algs = [...expected.keys()];
    const deepWarc = opts.deep === true && /\.warc(\.gz)?$/.test(f.rel);
    const consume: HashOptions['consume'] = async (bytes) => {
      const checked = await checkWarcRecords(bytes, f.rel, f.rel.endsWith('.gz'));
      records += checked.records;
      problems.push(...checked.problems);
    };
    const got = await hashFile(f.abs, algs, {
      ...(opts.signal && { signal: opts.signal }),
      onBytes: (n) => {
        // Counted apart from the call: `?.` would skip the sum with no listener.
        doneBytes += n;
        opts.onProgress?.({ phase, doneBytes, totalBytes });
      },
      ...(deepWarc && { consume }),
    });
    files++;
    const wrong = algs.filter((a) => got.digests[a] !== expected.get(a));
    if (wrong.length > 0) {
      problems.push({
        kind: 'altered',
        path: f.rel,
        detail: wrong.map((a) => `${a} is ${got.digests[a]}, manifest says ${expected.get(a)}`).join('; '),
      });
    }
  };

  const seen = new Set<string>();
  let payloadBytes = 0;
  for (const f of payloadFiles) {
    seen.add(f.rel);
    payloadBytes += f.size;
    const expected = payload.get(f.rel);
    if (expected === undefined) problems.push({ kind: 'unlisted', path: f.rel, detail: 'in data/ but in no manifest' });
    else await check(f, expected);
  }
  for (const rel of payload.keys()) {
    if (!seen.has(rel)) problems.push({ kind: 'missing', path: rel, detail: linkOrListed(root, rel, 'payload') });
  }
  for (const [rel, expected] of tags) {
    const f = tagFiles.find((t) => t.rel === rel);
    if (f === undefined) problems.push({ kind: 'missing', path: rel, detail: linkOrListed(root, rel, 'tag') });
    else await check(f, expected);
  }

  const infoFile = path.join(root, 'bag-info.txt');
  if (existsSync(infoFile)) {
    const oxum = safeParseInfo(await readFile(infoFile, 'utf8'), 'bag-info.txt', invalid).find(([k]) => k === 'Payload-Oxum');
    const actual = `${payloadBytes}.${payloadFiles.length}`;
    if (oxum && oxum[1] !== actual) invalid('bag-info.txt', `Payload-Oxum is ${oxum[1]}, the payload holds ${actual} (bytes.files)`);
  }
  if (opts.deep) {
    // A WACZ in the payload: its own package and every record of its WARC files.
    for (const f of payloadFiles.filter((p) => p.rel.endsWith('.wacz'))) {
      let inner: VerifyReport;
      try {
        inner = await verifyWacz(f.abs, { ...opts, onProgress: (p) => opts.onProgress?.({ ...p, phase: `${f.rel}: ${p.phase}` }) });
      } catch (e) {
        if (!(e instanceof VerifyInputError)) throw e;
        invalid(f.rel, 'not a WACZ (no ZIP)');
        continue;
      }
      records += inner.records ?? 0;
      problems.push(...inner.problems.map((p) => ({ ...p, path: `${f.rel}/${p.path}` })));
    }
  }
  return { format: 'bagit', target: root, ok: problems.length === 0, files, bytes: doneBytes, ...(opts.deep && { records }), problems };
}

function safeParseInfo(text: string, file: string, invalid: (p: string, d: string) => void): [string, string][] {
  try {
    return parseBagInfo(text);
  } catch (e) {
    invalid(file, (e as Error).message);
    return [];
  }
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Why a listed file was not read: a link (never followed), or absent. */
function linkOrListed(root: string, rel: string, manifest: 'payload' | 'tag'): string {
  return isLink(path.join(root, ...rel.split('/'))) ? `a symbolic link (not followed), listed in the ${manifest} manifest` : `listed in the ${manifest} manifest`;
}
