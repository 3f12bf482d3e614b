#!/usr/bin/env node
/**
 * The Electron desktop binary, fetched when the desktop app first needs it rather than during
 * `npm install`: its download (from GitHub, some 100 MB) fails on a machine without internet access,
 * and npm would then roll the whole install back. package.json's allowScripts keeps npm from running
 * electron's own install script; this one runs it on `npm start` and explains what to do when it
 * cannot.
 *
 *   node scripts/electron-binary.mjs --status   one line: is the binary there? (after npm install)
 *   node scripts/electron-binary.mjs            fetch it if missing; exit 1 with advice if that fails
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const statusOnly = process.argv.includes('--status');

function electronDir() {
  try {
    return path.dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** What electron's own index.js checks: dist/<path.txt> exists. */
function installed(dir) {
  try {
    if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return existsSync(process.env.ELECTRON_OVERRIDE_DIST_PATH);
    const exe = readFileSync(path.join(dir, 'path.txt'), 'utf8');
    return existsSync(path.join(dir, 'dist', exe));
  } catch {
    return false;
  }
}

const ADVICE = `Without it, everything else works: 'npm run harvest -- serve' runs the same app in your browser,
and 'npm run harvest -- crawl' from the command line. To get the desktop binary later:
  - run 'npm start' again with internet access (it fetches the binary once), or
  - point ELECTRON_MIRROR at a mirror your network can reach (see Electron's installation docs), or
  - put electron-v<version>-<platform>-<arch>.zip in Electron's cache (electron_config_cache).`;

const dir = electronDir();
if (dir === null) {
  console.error('harvest: the electron package is not installed; run npm install first.');
  process.exit(statusOnly ? 0 : 1);
}
const version = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;

if (installed(dir)) {
  if (statusOnly) console.log(`harvest: Electron ${version} desktop binary is installed; 'npm start' opens the app.`);
  process.exit(0);
}
if (statusOnly) {
  console.log(
    `harvest: the Electron ${version} desktop binary was not downloaded during install; 'npm start' fetches it the first time (needs internet access).\n` +
      `In the meantime 'npm run harvest -- serve' runs the same app in your browser.`,
  );
  process.exit(0);
}

console.error(`harvest: fetching the Electron ${version} desktop binary (once)...`);
const run = spawnSync(process.execPath, [path.join(dir, 'install.js')], { cwd: dir, encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' } });
if (run.status === 0 && installed(dir)) {
  console.error('harvest: Electron is ready.');
  process.exit(0);
}
// electron's installer prints a stack trace; its first line names the cause.
const cause = `${run.stderr ?? ''}${run.stdout ?? ''}`.split('\n').find((l) => l.trim() !== '')?.trim() ?? `exit status ${run.status}`;
console.error(`harvest: could not download the Electron desktop binary (${cause}).\n${ADVICE.replace('<version>', version)}`);
process.exit(1);
