import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HARVEST_FUSES, readFuses, setFuses } from './fuses.js';

/** What electron-builder's afterPack hook is given that this hook uses. */
export interface PackedApp {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}

/** The file that holds the fuse wire: the executable, or on macOS the Electron framework. */
export function fuseFile(app: PackedApp): string {
  const name = app.packager.appInfo.productFilename;
  switch (app.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(app.appOutDir, `${name}.app`, 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework');
    case 'win32':
      return path.join(app.appOutDir, `${name}.exe`);
    default:
      return path.join(app.appOutDir, app.packager.executableName ?? name);
  }
}

/**
 * electron-builder's afterPack hook (package.json build.afterPack): flips Harvest's fuses in the
 * packed binary, before electron-builder signs it, and checks they took.
 */
export default async function afterPack(app: PackedApp): Promise<void> {
  const file = fuseFile(app);
  const binary = readFileSync(file);
  setFuses(binary, HARVEST_FUSES);
  writeFileSync(file, binary);
  const now = readFuses(readFileSync(file));
  for (const [name, on] of Object.entries(HARVEST_FUSES)) {
    const state = now[name as keyof typeof HARVEST_FUSES];
    if (state !== 'removed' && state !== (on ? 'on' : 'off')) throw new Error(`fuse ${name} did not flip in ${file}`);
  }
  // Changing the framework voids its signature; macOS on Apple silicon runs nothing unsigned, so sign
  // it ad hoc now (a release build is signed again by electron-builder with the real identity).
  if (app.electronPlatformName === 'darwin' || app.electronPlatformName === 'mas') {
    const bundle = path.join(app.appOutDir, `${app.packager.appInfo.productFilename}.app`);
    const r = spawnSync('codesign', ['--sign', '-', '--force', '--deep', bundle], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ad-hoc signing of ${bundle} failed: ${r.stderr}`);
  }
}
