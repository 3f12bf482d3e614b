import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bagInfoFields, formatBagInfo } from './bagInfo.js';
import { commitPartial, fsyncPath, partialPathOf, refuseExisting } from './atomicOutput.js';
import { copyWithDigest, hashFile, type ManifestAlgorithm } from './hashing.js';
import { formatManifestLine, type ManifestEntry } from './manifest.js';
import { ENTRY_PAGE, entryPageHtml } from '../crawl/entryPage.js';
import { listFiles } from './mirrorFiles.js';
import { PortableNameChecker, UnportableNamesError } from './portableNames.js';
import { readProvenance } from './provenance.js';
import type { Archive } from '../store/archive.js';
import type { Exporter, ExportOptions } from './types.js';

export const BAGIT_TXT = 'bagit.txt';
export const BAG_INFO_TXT = 'bag-info.txt';
export const PAYLOAD_DIR = 'data';
/** Where the mirror goes in the payload when included. */
export const PAYLOAD_MIRROR_DIR = 'mirror';
/** RFC 8493 section 2.4: a bag SHOULD use SHA-512 (sha256 stays available, alone or beside it). */
export const DEFAULT_BAG_ALGORITHMS: readonly ManifestAlgorithm[] = ['sha512'];
const COPY_CONCURRENCY = 4;

export const payloadManifestName = (alg: ManifestAlgorithm): string => `manifest-${alg}.txt`;
export const tagManifestName = (alg: ManifestAlgorithm): string => `tagmanifest-${alg}.txt`;

/**
 * BagIt (RFC 8493) export for preservation repositories: a bag folder whose payload holds the
 * archive's WACZ and, optionally, the browsable mirror. The WACZ comes from `makeWacz` (the WACZ
 * exporter, passed in so the two formats stay independent). Built in `<out>.partial/` and renamed
 * once every file is written, flushed and listed in the manifests.
 */
export function bagitExporter(makeWacz: Exporter): Exporter {
  return async (archive, outPath, opts) => {
    const algorithms = [...new Set(opts.bagAlgorithms ?? DEFAULT_BAG_ALGORITHMS)];
    if (algorithms.length === 0) throw new Error('a bag needs at least one checksum algorithm');
    refuseExisting(outPath);
    const partial = partialPathOf(outPath);
    await rm(partial, { recursive: true, force: true });
    const data = path.join(partial, PAYLOAD_DIR);
    await mkdir(data, { recursive: true });
    try {
      const payload = await writePayload(makeWacz, archive, outPath, data, opts, algorithms);
      opts.signal?.throwIfAborted();
      const tagEntries = new Map<ManifestAlgorithm, ManifestEntry[]>(algorithms.map((a) => [a, []]));
      const tagFile = async (name: string, text: string): Promise<void> => {
        const file = path.join(partial, name);
        const bytes = Buffer.from(text, 'utf8');
        await writeFile(file, bytes, { flag: 'wx' });
        await fsyncPath(file);
        for (const [alg, entries] of tagEntries) entries.push({ path: name, checksum: createHash(alg).update(bytes).digest('hex') });
      };
      await tagFile(BAGIT_TXT, 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
      const totals = { bytes: payload.reduce((n, e) => n + e.bytes, 0), files: payload.length };
      await tagFile(BAG_INFO_TXT, formatBagInfo(bagInfoFields(readProvenance(archive, opts.capture), opts.metadata, totals, new Date())));
      for (const alg of algorithms) {
        await tagFile(payloadManifestName(alg), payload.map((e) => formatManifestLine({ path: e.path, checksum: e.digests[alg]! })).join(''));
      }
      // Each tag manifest lists every tag file but the tag manifests themselves.
      for (const [alg, entries] of tagEntries) {
        const tagManifest = path.join(partial, tagManifestName(alg));
        await writeFile(tagManifest, entries.map(formatManifestLine).join(''), { flag: 'wx' });
        await fsyncPath(tagManifest);
      }
      await commitPartial(partial, outPath);
      return { path: path.resolve(outPath), bytes: totals.bytes, files: totals.files };
    } catch (e) {
      await rm(partial, { recursive: true, force: true });
      throw e;
    }
  };
}

interface PayloadEntry {
  path: string;
  /** Hex digest by algorithm. */
  digests: Record<string, string>;
  bytes: number;
}

/** Writes `data/`: the WACZ, then the mirror if asked for; returns the payload manifest entries. */
async function writePayload(
  makeWacz: Exporter,
  archive: Archive,
  outPath: string,
  data: string,
  opts: ExportOptions,
  algorithms: readonly ManifestAlgorithm[],
): Promise<PayloadEntry[]> {
  const report = (phase: string, doneBytes: number, totalBytes: number): void =>
    opts.onProgress?.({ phase, doneBytes, totalBytes });
  const waczName = `${path.basename(outPath).replace(/\.bag$/i, '') || 'archive'}.wacz`;
  const waczFile = path.join(data, waczName);
  await makeWacz(archive, waczFile, {
    metadata: opts.metadata,
    ...(opts.signal && { signal: opts.signal }),
    ...(opts.noPageText && { noPageText: true }),
    ...(opts.capture !== undefined && { capture: opts.capture }),
    onProgress: (p) => report(`WACZ: ${p.phase}`, p.doneBytes, p.totalBytes),
  });
  // The WACZ exporter wrote and flushed the file itself, so it is hashed in a pass of its own.
  let done = 0;
  const wacz = await hashFile(waczFile, algorithms, {
    ...(opts.signal && { signal: opts.signal }),
    onBytes: (n) => report('hashing WACZ', (done += n), 0),
  });
  const entries: PayloadEntry[] = [
    { path: `${PAYLOAD_DIR}/${waczName}`, digests: wacz.digests, bytes: wacz.bytes },
  ];
  if (!opts.includeMirror) return entries;

  const { files: mirrorFiles, bytes: totalBytes } = await listFiles(archive.mirror.root);
  // The mirror's front door is written afresh, with the description as it is now.
  const files = mirrorFiles.filter((f) => f.rel !== ENTRY_PAGE);
  const names = new PortableNameChecker();
  for (const f of files) names.add(`${PAYLOAD_DIR}/${PAYLOAD_MIRROR_DIR}/${f.rel}`);
  if (names.problems.length > 0) throw new UnportableNamesError(names.problems);
  const entryRel = `${PAYLOAD_DIR}/${PAYLOAD_MIRROR_DIR}/${ENTRY_PAGE}`;
  const entryPage = Buffer.from(entryPageHtml(archive, opts.metadata));
  const entryFile = path.join(path.dirname(data), ...entryRel.split('/'));
  await mkdir(path.dirname(entryFile), { recursive: true });
  await writeFile(entryFile, entryPage, { flag: 'wx' });
  await fsyncPath(entryFile);
  entries.push({
    path: entryRel,
    digests: Object.fromEntries(algorithms.map((a) => [a, createHash(a).update(entryPage).digest('hex')])),
    bytes: entryPage.length,
  });
  const mirrorEntries = new Array<PayloadEntry>(files.length);
  const madeDirs = new Set<string>();
  let copied = 0;
  let next = 0;
  let failed = false;
  const copyNext = async (): Promise<void> => {
    while (!failed && next < files.length) {
      const f = files[next]!;
      const i = next++;
      opts.signal?.throwIfAborted();
      const rel = `${PAYLOAD_DIR}/${PAYLOAD_MIRROR_DIR}/${f.rel}`;
      const dst = path.join(path.dirname(data), ...rel.split('/'));
      const dir = path.dirname(dst);
      if (!madeDirs.has(dir)) {
        await mkdir(dir, { recursive: true });
        madeDirs.add(dir);
      }
      const d = await copyWithDigest(f.abs, dst, algorithms, {
        ...(opts.signal && { signal: opts.signal }),
        onBytes: (n) => report('copying mirror', (copied += n), totalBytes),
      });
      mirrorEntries[i] = { path: rel, digests: d.digests, bytes: d.bytes };
    }
  };
  // Several copies in flight hide each file's fsync latency; every copier stops at the first failure,
  // and all have stopped before the caller removes the partial bag.
  const outcomes = await Promise.allSettled(
    Array.from({ length: COPY_CONCURRENCY }, () =>
      copyNext().catch((e: unknown) => {
        failed = true;
        throw e;
      }),
    ),
  );
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
  entries.push(...mirrorEntries);
  return entries;
}
