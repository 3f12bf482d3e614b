import path from 'node:path';
import type { DublinCore } from '../../../shared/metadata.js';
import type { ZipResource } from './hashingZip.js';
import type { MainPage } from './pages.js';

export const WACZ_VERSION = '1.1.1';

/** WACZ 1.1.1's datapackage.json: every file with its SHA-256 and size, and what the archive is. */
export function datapackageJson(opts: {
  resources: readonly ZipResource[];
  metadata: DublinCore;
  fallbackTitle: string;
  mainPage: MainPage | null;
  software: string;
  created: Date;
}): Buffer {
  const m = opts.metadata;
  // Only the Dublin Core terms the archivist filled in.
  const dublinCore = Object.fromEntries(
    Object.entries(m).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== '')),
  );
  const pkg = {
    profile: 'data-package',
    wacz_version: WACZ_VERSION,
    title: m.title || opts.fallbackTitle,
    ...(m.description && { description: m.description }),
    ...(m.subject.length > 0 && { keywords: m.subject }),
    ...(opts.mainPage && { mainPageUrl: opts.mainPage.url, mainPageDate: opts.mainPage.ts }),
    created: opts.created.toISOString(),
    software: opts.software,
    ...(Object.keys(dublinCore).length > 0 && { dublinCore }),
    resources: opts.resources.map((r) => ({ name: path.posix.basename(r.path), path: r.path, hash: r.hash, bytes: r.bytes })),
  };
  return Buffer.from(JSON.stringify(pkg, null, 2));
}

/** datapackage-digest.json: the datapackage's own hash (unsigned). */
export function datapackageDigestJson(datapackage: ZipResource): Buffer {
  return Buffer.from(JSON.stringify({ path: datapackage.path, hash: datapackage.hash }, null, 2));
}
