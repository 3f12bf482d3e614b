/**
 * Checks that file names inside an export unpack unchanged on Windows, macOS and Linux. The mirror's
 * local-path scheme already produces such names; this is the guard that an export never silently
 * ships a name some system would refuse, rename or merge with another (which would break links).
 */

/** Windows device names, reserved whatever extension follows (CON, nul.txt, COM1.html ...). */
const WINDOWS_DEVICE = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$) *(\..*)?$/i;
/** Characters Windows forbids in names, plus every control character. */
const FORBIDDEN_CHAR = /[<>:"|?*\\\p{Cc}]/u;
/** Windows' classic MAX_PATH; longer paths need opt-in long-path support there. */
export const MAX_PORTABLE_PATH = 260;

export interface UnportableName {
  path: string;
  reason: string;
}

export class UnportableNamesError extends Error {
  constructor(readonly names: UnportableName[]) {
    const shown = names.slice(0, 20).map((n) => `  ${n.path}: ${n.reason}`);
    const more = names.length > shown.length ? [`  ... and ${names.length - shown.length} more`] : [];
    super(`${names.length} file name(s) would not survive on every system:\n${[...shown, ...more].join('\n')}`);
    this.name = 'UnportableNamesError';
  }
}

/** Why one '/'-separated path component is not portable, or null when it is. */
export function componentProblem(name: string): string | null {
  if (name === '') return 'empty name';
  if (name === '.' || name === '..') return `'${name}' is not a name`;
  const bad = FORBIDDEN_CHAR.exec(name);
  if (bad) return `contains ${JSON.stringify(bad[0])}`;
  if (/[. ]$/.test(name)) return 'ends with a dot or space (Windows drops it)';
  if (WINDOWS_DEVICE.test(name)) return 'is a reserved Windows device name';
  if (Buffer.byteLength(name) > 255) return 'is longer than 255 bytes';
  return null;
}

/**
 * Collects the problems of many '/'-separated relative paths, fed one at a time so a caller can
 * check while it walks. Two names that differ only in case or Unicode normalisation collide on
 * macOS and Windows, so those are reported too.
 */
export class PortableNameChecker {
  readonly problems: UnportableName[] = [];
  /** Paths longer than MAX_PORTABLE_PATH: reported, not refused (modern systems cope). */
  readonly tooLong: string[] = [];
  private readonly folded = new Map<string, string>();

  add(relPath: string): void {
    for (const part of relPath.split('/')) {
      const reason = componentProblem(part);
      if (reason !== null) {
        this.problems.push({ path: relPath, reason: `'${part}' ${reason}` });
        return;
      }
    }
    // A file and a folder can also collide ('a' vs 'A/b'), so every prefix is folded too.
    const parts = relPath.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      const key = prefix.normalize('NFC').toLowerCase();
      const seen = this.folded.get(key);
      if (seen === undefined) this.folded.set(key, prefix);
      else if (seen !== prefix) {
        this.problems.push({ path: relPath, reason: `'${prefix}' differs from '${seen}' only in case or accents` });
        return;
      }
    }
    if (relPath.length > MAX_PORTABLE_PATH) this.tooLong.push(relPath);
  }
}
