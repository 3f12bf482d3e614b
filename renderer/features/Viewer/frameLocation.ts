import { archiveBase, THUMBNAIL_ROUTE } from '../../../shared/frameLocation.js';

/**
 * How the viewer addresses mirror files. Where its frame has gone after a link inside the page, it
 * asks the host (archives.frameLocation), never the page (see shared/frameLocation.ts).
 */

/** The URL of a mirror file in the viewer. Each path segment is encoded, the '/'s kept. */
export function viewerUrl(viewerBase: string, jobId: string, localPath: string): string {
  const path = localPath
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return `${archiveBase(viewerBase, jobId)}${path}`;
}

/** Where the archive's own origin serves a page's thumbnail (shared/frameLocation.ts THUMBNAIL_ROUTE). */
export function thumbnailUrl(viewerBase: string, jobId: string, localPath: string): string {
  return viewerUrl(viewerBase, jobId, `${THUMBNAIL_ROUTE}/${localPath}.png`);
}
