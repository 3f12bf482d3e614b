import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseBagInfo } from './bagInfo.js';
import { hashFile, isManifestAlgorithm } from './hashing.js';
import { parseManifest } from './manifest.js';
import { walkFiles } from './mirrorFiles.js';
import { VerifyInputError, type VerifyOptions, type VerifyProblem, type VerifyReport } from './verifyReport.js';

const PAYLOAD_PREFIX = 'data/';

/** Expected digests of one file, by algorithm, and the manifests that list it. */
type Expected = Map<string, Map<string, string>>;

/**
 * Checks a bag folder against RFC 8493: every file listed in a payload or tag manifest exists and
 * has its listed digest, every payload file is listed, and Payload-Oxum (if given) adds up.
 */
export async function verifyBag(dir: string, opts: VerifyOptions = {}): Promise<VerifyReport> {
  const root = path.resolve(dir);
  const bagitTxt = path.join(root, 'bagit.txt');
  if (!existsSync(bagitTxt)) throw new VerifyInputError(`${root} is not a bag (it has no bagit.txt)`);
  const problems: VerifyProblem[] = [];
  const invalid = (p: string, detail: string): void => void problems.push({ kind: 'invalid', path: p, detail });

  const declaration = new Map(safeParseInfo(await readFile(bagitTxt, 'utf8'), 'bagit.txt', invalid));
  if (!declaration.get('BagIt-Version')) invalid('bagit.txt', 'no BagIt-Version');
  const encoding = declaration.get('Tag-File-Character-Encoding') ?? '';
  if (!/^utf-?8$/i.test(encoding)) invalid('bagit.txt', `Tag-File-Character-Encoding is '${encoding}', expected UTF-8`);

  const payload: Expected = new Map();
  const tags: Expected = new Map();
  const top = (await readdir(root)).sort();
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
  if (existsSync(dataDir) && statSync(dataDir).isDirectory()) {
    for await (const f of walkFiles(dataDir)) payloadFiles.push({ ...f, rel: `${PAYLOAD_PREFIX}${f.rel}` });
  } else invalid('data', 'the payload folder is missing');
  const tagFiles = [...tags.keys()]
    .filter((rel) => existsSync(path.join(root, rel)) && statSync(path.join(root, rel)).isFile())
    .map((rel) => ({ rel, abs: path.join(root, rel), size: statSync(path.join(root, rel)).size }));
  const totalBytes = [...payloadFiles, ...tagFiles].reduce((n, f) => n + f.size, 0);

  let doneBytes = 0;
  let files = 0;
  const check = async (f: { rel: string; abs: string }, expected: Map<string, string>): Promise<void> => {
    const algs = [...expected.keys()];
    const got = await hashFile(f.abs, algs, {
      ...(opts.signal && { signal: opts.signal }),
      onBytes: (n) => opts.onProgress?.({ phase: 'hashing', doneBytes: (doneBytes += n), totalBytes }),
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
    if (!seen.has(rel)) problems.push({ kind: 'missing', path: rel, detail: 'listed in the payload manifest' });
  }
  for (const [rel, expected] of tags) {
    const f = tagFiles.find((t) => t.rel === rel);
    if (f === undefined) problems.push({ kind: 'missing', path: rel, detail: 'listed in the tag manifest' });
    else await check(f, expected);
  }

  const infoFile = path.join(root, 'bag-info.txt');
  if (existsSync(infoFile)) {
    const oxum = safeParseInfo(await readFile(infoFile, 'utf8'), 'bag-info.txt', invalid).find(([k]) => k === 'Payload-Oxum');
    const actual = `${payloadBytes}.${payloadFiles.length}`;
    if (oxum && oxum[1] !== actual) invalid('bag-info.txt', `Payload-Oxum is ${oxum[1]}, the payload holds ${actual} (bytes.files)`);
  }
  return { format: 'bagit', target: root, ok: problems.length === 0, files, bytes: doneBytes, problems };
}

function safeParseInfo(text: string, file: string, invalid: (p: string, d: string) => void): [string, string][] {
  try {
    return parseBagInfo(text);
  } catch (e) {
    invalid(file, (e as Error).message);
    return [];
  }
}
