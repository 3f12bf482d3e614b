/**
 * BagIt manifest lines (RFC 8493 section 2.1.3): `<checksum> <filepath>`, one file per line, paths
 * relative to the bag with '/' separators, and CR, LF and '%' in a path percent-encoded.
 */

export interface ManifestEntry {
  path: string;
  checksum: string;
}

export function encodeManifestPath(p: string): string {
  return p.replace(/[%\r\n]/g, (c) => (c === '%' ? '%25' : c === '\r' ? '%0D' : '%0A'));
}

export function decodeManifestPath(p: string): string {
  return p.replace(/%(25|0A|0D)/gi, (_m, code: string) => String.fromCharCode(parseInt(code, 16)));
}

export function formatManifestLine(e: ManifestEntry): string {
  return `${e.checksum}  ${encodeManifestPath(e.path)}\n`;
}

export class ManifestSyntaxError extends Error {
  constructor(file: string, line: number, text: string) {
    super(`${file} line ${line}: not '<checksum> <path>': ${JSON.stringify(text.slice(0, 120))}`);
    this.name = 'ManifestSyntaxError';
  }
}

/** Parses a manifest's text; `file` names it in errors. Blank lines are allowed and skipped. */
export function parseManifest(text: string, file: string): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const m = /^([0-9A-Fa-f]+)[ \t]+(.+)$/.exec(line);
    if (!m) throw new ManifestSyntaxError(file, i + 1, line);
    out.push({ checksum: m[1]!.toLowerCase(), path: decodeManifestPath(m[2]!) });
  });
  return out;
}
