import path from 'node:path';
import type { DublinCore } from '../../../shared/metadata.js';
import type { ZipResource } from './hashingZip.js';
import type { MainPage } from './pages.js';

export const WACZ_VERSION = '1.1.1';

/**
 * WACZ 1.1.1's datapackage.json: every file with its SHA-256 and size, and what the archive is. The
 * Dublin Core description goes in whole as `dublinCore`, and onto the Data Package's own fields
 * (https://specs.frictionlessdata.io/data-package/) so tools that know only those see it: `title`,
 * `description`, `keywords` (subject), `licenses` (rights), `contributors` (creator as author,
 * publisher, each contributor, and the source organisation with its contact e-mail as maintainer),
 * `created` (when the harvest started) and `modified` (when this package was written).
 */
export function datapackageJson(opts: {
  resources: readonly ZipResource[];
  metadata: DublinCore;
  fallbackTitle: string;
  mainPage: MainPage | null;
  software: string;
  /** When the crawl started (ISO 8601), null if it never did. */
  harvestStarted: string | null;
  written: Date;
}): Buffer {
  const m = opts.metadata;
  // Only the Dublin Core terms the archivist filled in.
  const dublinCore = Object.fromEntries(
    Object.entries(m).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== '')),
  );
  const contributors = contributorsOf(m);
  const pkg = {
    profile: 'data-package',
    wacz_version: WACZ_VERSION,
    title: m.title || opts.fallbackTitle,
    ...(m.description && { description: m.description }),
    ...(m.subject.length > 0 && { keywords: m.subject }),
    ...(m.rights && { licenses: [licenseOf(m.rights)] }),
    ...(contributors.length > 0 && { contributors }),
    ...(opts.mainPage && { mainPageUrl: opts.mainPage.url, mainPageDate: opts.mainPage.ts }),
    created: opts.harvestStarted ?? opts.written.toISOString(),
    modified: opts.written.toISOString(),
    software: opts.software,
    ...(Object.keys(dublinCore).length > 0 && { dublinCore }),
    resources: opts.resources.map((r) => ({ name: path.posix.basename(r.path), path: r.path, hash: r.hash, bytes: r.bytes })),
  };
  return Buffer.from(JSON.stringify(pkg, null, 2));
}

interface License {
  name?: string;
  path?: string;
  title?: string;
}

/**
 * A Data Package license needs a `name` (an identifier such as CC-BY-4.0) or a `path` (a URL): a
 * rights statement that is one word is taken as the name, one that holds a URL gives the path, and
 * any other text keeps its words as the title under SPDX's name for a license not on its list.
 */
export function licenseOf(rights: string): License {
  const text = rights.trim();
  if (/^[A-Za-z0-9][A-Za-z0-9.+-]*$/.test(text)) return { name: text };
  const url = /https?:\/\/[^\s<>"]+[^\s<>".,;:)]/.exec(text)?.[0];
  return url !== undefined ? { path: url, title: text } : { name: 'LicenseRef-rights-statement', title: text };
}

interface Contributor {
  title: string;
  role: 'author' | 'publisher' | 'contributor' | 'maintainer';
  email?: string;
}

function contributorsOf(m: DublinCore): Contributor[] {
  const out: Contributor[] = [];
  if (m.creator) out.push({ title: m.creator, role: 'author' });
  if (m.publisher) out.push({ title: m.publisher, role: 'publisher' });
  for (const c of m.contributor) out.push({ title: c, role: 'contributor' });
  if (m.contactEmail) out.push({ title: m.sourceOrganization || m.contactEmail, email: m.contactEmail, role: 'maintainer' });
  return out;
}

/** datapackage-digest.json: the datapackage's own hash (unsigned). */
export function datapackageDigestJson(datapackage: ZipResource): Buffer {
  return Buffer.from(JSON.stringify({ path: datapackage.path, hash: datapackage.hash }, null, 2));
}
