import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { fuseFile, type PackedApp } from '../../../electron/build/afterPack.js';
import { HARVEST_FUSES, readFuses, setFuses } from '../../../electron/build/fuses.js';
import { PROJECT_ROOT } from '../../helpers/benchSite.js';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** A stand-in for an Electron binary: filler, then a fuse wire as Electron ships it (all defaults), then filler. */
const fakeElectron = (wire = '1101r001', copies = 1) =>
  Buffer.concat([
    Buffer.alloc(4096, 7),
    ...Array.from({ length: copies }, () => Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, wire.length]), Buffer.from(wire), Buffer.alloc(512, 9)])),
  ]);

describe('Electron fuses of the packaged app', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'harvest-fuses-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it("are set by electron-builder's afterPack hook, which ships outside the app, with ASAR on", async () => {
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { build: { afterPack?: string; asar?: boolean; files: string[] } };
    assert.equal(pkg.build.afterPack, './dist/electron/build/afterPack.js');
    assert.notEqual(pkg.build.asar, false, 'ASAR integrity and load-only-from-ASAR need an app.asar');
    assert.ok(pkg.build.files.includes('!dist/electron/build/**'));
    const hook = (await import(pathToFileURL(path.join(PROJECT_ROOT, pkg.build.afterPack)).href)) as { default: unknown };
    assert.equal(typeof hook.default, 'function');
  });

  it('turn off run-as-node, NODE_OPTIONS, --inspect and file:// privileges, and turn on cookie encryption, ASAR integrity and ASAR-only loading', () => {
    assert.deepEqual(HARVEST_FUSES, {
      RunAsNode: false,
      EnableCookieEncryption: true,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      GrantFileProtocolExtraPrivileges: false,
    });
  });

  it('are written into the packed binary, leaving a removed fuse and every other byte alone', async () => {
    const app: PackedApp = { appOutDir: work, electronPlatformName: 'linux', packager: { appInfo: { productFilename: 'Harvest' }, executableName: 'harvest' } };
    const file = fuseFile(app);
    assert.equal(file, path.join(work, 'harvest'));
    const before = fakeElectron();
    writeFileSync(file, before);
    assert.deepEqual(readFuses(before), { RunAsNode: 'on', EnableCookieEncryption: 'on', EnableNodeOptionsEnvironmentVariable: 'off', EnableNodeCliInspectArguments: 'on', EnableEmbeddedAsarIntegrityValidation: 'removed', OnlyLoadAppFromAsar: 'off', GrantFileProtocolExtraPrivileges: 'on' });
    const hook = (await import('../../../electron/build/afterPack.js')).default;
    await hook(app);
    const out = readFileSync(file);
    assert.deepEqual(readFuses(out), { RunAsNode: 'off', EnableCookieEncryption: 'on', EnableNodeOptionsEnvironmentVariable: 'off', EnableNodeCliInspectArguments: 'off', EnableEmbeddedAsarIntegrityValidation: 'removed', OnlyLoadAppFromAsar: 'on', GrantFileProtocolExtraPrivileges: 'off' });
    const changed = [...out].flatMap((b, i) => (b === before[i] ? [] : [i]));
    const wireAt = 4096 + SENTINEL.length + 2;
    assert.deepEqual(changed, [wireAt + 0, wireAt + 3, wireAt + 5, wireAt + 7]);
  });

  it('are set in both slices of a universal macOS binary, and refused where the wire is unknown', () => {
    const universal = fakeElectron('00000000', 2);
    assert.equal(setFuses(universal, HARVEST_FUSES), 2);
    assert.equal(universal.toString('latin1').split(`${SENTINEL}\x01\x0801001100`).length, 3);
    assert.throws(() => setFuses(Buffer.alloc(100), HARVEST_FUSES), /no fuse wire/);
    assert.throws(() => setFuses(fakeElectron('0000'), HARVEST_FUSES), /no fuse EnableEmbeddedAsarIntegrityValidation/);
    const v2 = fakeElectron();
    v2[4096 + SENTINEL.length] = 2;
    assert.throws(() => setFuses(v2, HARVEST_FUSES), /version 2/);
    assert.equal(fuseFile({ appOutDir: '/o', electronPlatformName: 'darwin', packager: { appInfo: { productFilename: 'Harvest' } } }), '/o/Harvest.app/Contents/Frameworks/Electron Framework.framework/Electron Framework');
    assert.equal(fuseFile({ appOutDir: '/o', electronPlatformName: 'win32', packager: { appInfo: { productFilename: 'Harvest' } } }), path.join('/o', 'Harvest.exe'));
  });
});
