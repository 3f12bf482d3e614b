import { WarcError } from './errors.js';

/** Suffix of a file still being written; it is renamed without it once finished. */
export const OPEN_SUFFIX = '.open';

const PREFIX_PATTERN = /^[A-Za-z0-9._-]+$/;

export function checkPrefix(prefix: string): void {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new WarcError('invalid', `WARC file prefix must be letters, digits, '.', '_' or '-': ${JSON.stringify(prefix)}`);
  }
}

/** `<prefix>-<yyyyMMddHHmmssSSS>-<serial>.warc.gz`: names sort by creation, as Heritrix's do. */
export function warcFileName(prefix: string, createdAt: Date, serial: number): string {
  const stamp = createdAt.toISOString().replace(/\D/g, '').slice(0, 17);
  return `${prefix}-${stamp}-${String(serial).padStart(5, '0')}.warc.gz`;
}

export interface WarcFileEntry {
  /** The finished name (without OPEN_SUFFIX). */
  name: string;
  serial: number;
  open: boolean;
}

/** The WARC files of this prefix among a directory's entries, unfinished or not, in creation order. */
export function warcFilesOf(prefix: string, entries: readonly string[]): WarcFileEntry[] {
  const found: WarcFileEntry[] = [];
  for (const entry of entries) {
    const open = entry.endsWith(OPEN_SUFFIX);
    const name = open ? entry.slice(0, -OPEN_SUFFIX.length) : entry;
    if (!name.startsWith(`${prefix}-`)) continue;
    const match = /^(\d{17})-(\d{5,})\.warc\.gz$/.exec(name.slice(prefix.length + 1));
    if (match) found.push({ name, serial: Number(match[2]), open });
  }
  return found.sort((a, b) => a.serial - b.serial || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
