/**
 * Electron's fuses (docs/tutorial/fuses.md in Electron): feature switches compiled into the Electron
 * binary as a "fuse wire", a 32-byte sentinel followed by a version byte, a length byte and one byte
 * per fuse ('0' off, '1' on, 'r' removed). Flipping them at packaging time turns features off in a
 * way no command-line flag or environment variable can turn back on.
 *
 * electron-builder 25 has no setting for them (its `electronFuses` came in 26) and @electron/fuses is
 * not a dependency, so the packaging hook (afterPack.ts) writes the wire itself, in the same format.
 */
const SENTINEL = Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX', 'ascii');
const WIRE_VERSION = 1;
const OFF = 0x30;
const ON = 0x31;
const REMOVED = 0x72;

/** Fuse wire version 1: each fuse's position on the wire. */
export const FUSE_INDEX = {
  RunAsNode: 0,
  EnableCookieEncryption: 1,
  EnableNodeOptionsEnvironmentVariable: 2,
  EnableNodeCliInspectArguments: 3,
  EnableEmbeddedAsarIntegrityValidation: 4,
  OnlyLoadAppFromAsar: 5,
  // 6 is LoadBrowserProcessSpecificV8Snapshot, left as Electron ships it.
  GrantFileProtocolExtraPrivileges: 7,
} as const;
export type FuseName = keyof typeof FUSE_INDEX;

/**
 * Harvest's packaged app: it can't be run as plain Node (ELECTRON_RUN_AS_NODE), NODE_OPTIONS and
 * --inspect are ignored, cookies are encrypted at rest, it runs only the app.asar it shipped
 * with, checked against the hash electron-builder records (macOS and Windows; Linux has no check),
 * and file:// pages get no more than a browser gives them (the app loads none; an archive opened
 * from disk must not read other files).
 */
export const HARVEST_FUSES: Readonly<Record<FuseName, boolean>> = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  GrantFileProtocolExtraPrivileges: false,
};

export type FuseState = 'on' | 'off' | 'removed';

/** Every fuse wire in a binary (a universal macOS binary has one per architecture). */
function wires(binary: Buffer): { at: number; length: number }[] {
  const found: { at: number; length: number }[] = [];
  for (let i = binary.indexOf(SENTINEL); i !== -1; i = binary.indexOf(SENTINEL, i + 1)) {
    const version = binary[i + SENTINEL.length];
    if (version !== WIRE_VERSION) throw new Error(`fuse wire version ${String(version)} is not ${WIRE_VERSION}; update electron/build/fuses.ts`);
    found.push({ at: i + SENTINEL.length + 2, length: binary[i + SENTINEL.length + 1]! });
  }
  if (found.length === 0) throw new Error('no fuse wire in this binary (fuses need Electron 12 or newer)');
  return found;
}

/** Sets the fuses in the binary's bytes, in place; refuses a wire too short for any of them. Returns how many wires it changed. */
export function setFuses(binary: Buffer, fuses: Readonly<Partial<Record<FuseName, boolean>>>): number {
  const found = wires(binary);
  for (const { at, length } of found) {
    for (const [name, on] of Object.entries(fuses) as [FuseName, boolean][]) {
      const index = FUSE_INDEX[name];
      if (index >= length) throw new Error(`this Electron has no fuse ${name}`);
      if (binary[at + index] !== REMOVED) binary[at + index] = on ? ON : OFF;
    }
  }
  return found.length;
}

/** The fuses as the binary has them (from its first wire). */
export function readFuses(binary: Buffer): Partial<Record<FuseName, FuseState>> {
  const [{ at, length }] = wires(binary) as [{ at: number; length: number }];
  const out: Partial<Record<FuseName, FuseState>> = {};
  for (const [name, index] of Object.entries(FUSE_INDEX) as [FuseName, number][]) {
    if (index < length) out[name] = binary[at + index] === ON ? 'on' : binary[at + index] === REMOVED ? 'removed' : 'off';
  }
  return out;
}
