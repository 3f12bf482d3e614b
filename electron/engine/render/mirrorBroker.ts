import { readFile } from 'node:fs/promises';
import mime from 'mime-types';
import type { Archive } from '../store/archive.js';
import type { BrokerAnswer, PageRequest, PageResponse, RequestBroker } from './types.js';

/**
 * The origin a mirror is shown under in Harvest's own browser: a name that can never resolve
 * (RFC 6761 .invalid), so the offline copy's relative links stay inside it and nothing else loads.
 */
export const MIRROR_ORIGIN = 'http://mirror.harvest.invalid';

/** The address of a mirror file under MIRROR_ORIGIN. */
export function mirrorUrlOf(localPath: string): string {
  return `${MIRROR_ORIGIN}/${localPath.split('/').map(encodeURIComponent).join('/')}`;
}

/** The mirror file an address under MIRROR_ORIGIN names (a folder: its index.html), or null for any other address. */
export function mirrorFileOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.origin !== MIRROR_ORIGIN) return null;
  const file = decodeURIComponent(u.pathname.slice(1));
  return file === '' || file.endsWith('/') ? `${file}index.html` : file;
}

/**
 * Answers a GET under MIRROR_ORIGIN with `read`'s file; anything else (the live web, a form's
 * POST) is refused, and so is a file `read` cannot give, with `missing` as the reason.
 */
export async function answerFromFiles(req: PageRequest, read: (localPath: string) => Promise<PageResponse>, missing: string): Promise<BrokerAnswer> {
  const file = mirrorFileOf(req.url);
  if (req.method !== 'GET' || file === null) return { refused: 'outside the offline copy' };
  try {
    return { response: await read(file) };
  } catch {
    return { refused: missing };
  }
}

/** Answers only from the mirror's files; anything else (the live web) is refused. */
export class MirrorBroker implements RequestBroker {
  constructor(private readonly archive: Archive) {}

  answer(req: PageRequest): Promise<BrokerAnswer> {
    return answerFromFiles(req, (file) => this.read(file), 'not in the offline copy');
  }

  async read(localPath: string): Promise<PageResponse> {
    const body = await readFile(this.archive.mirror.absolutePath(localPath));
    return { status: 200, headers: { 'content-type': mime.contentType(localPath.split('/').pop() ?? '') || 'application/octet-stream' }, body };
  }
}
