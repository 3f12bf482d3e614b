import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

// dist/test/unit/renderer -> project root
const root = resolve(fileURLToPath(import.meta.url), '../../../../..');
const rendererDir = join(root, 'renderer');
// diff (jsdiff): the viewer's word diff of two captures' text, pure JavaScript with no imports of its own.
const ALLOWED_PACKAGES = ['react', 'react-dom', 'zustand', '@tanstack/react-virtual', 'diff'];

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // dev/ holds Node scripts for manual checking and build.mjs the bundler: neither is shipped UI code.
    if (entry.isDirectory() && entry.name !== 'dev') out.push(...(await sources(path)));
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

function importsOf(source: string): string[] {
  const specs: string[] = [];
  for (const m of source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g)) {
    specs.push((m[1] ?? m[2] ?? m[3]) as string);
  }
  return specs;
}

function allowed(spec: string, file: string): boolean {
  if (spec.startsWith('.')) {
    const target = resolve(file, '..', spec);
    return target.startsWith(rendererDir) || target.startsWith(join(root, 'shared'));
  }
  return ALLOWED_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`));
}

it('the renderer imports only react, react-dom, zustand, @tanstack/react-virtual, diff, itself and shared/', async () => {
  const files = await sources(rendererDir);
  assert.ok(files.length > 10, 'renderer sources found');
  const bad = [];
  for (const file of files) {
    for (const spec of importsOf(await readFile(file, 'utf8'))) {
      if (!allowed(spec, file)) bad.push(`${relative(root, file)}: ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
});

it('the import scan catches forbidden modules', () => {
  const file = join(rendererDir, 'x.ts');
  const specs = importsOf(`import fs from 'node:fs';\nimport { ipcRenderer } from "electron";\nimport '../electron/engine/crawl/crawl.js';\nconst m = await import('undici');`);
  assert.deepEqual(specs, ['node:fs', 'electron', '../electron/engine/crawl/crawl.js', 'undici']);
  assert.deepEqual(specs.filter((s) => allowed(s, file)), []);
  assert.equal(allowed('zustand/react/shallow', file), true);
  assert.equal(allowed('../shared/contract.js', file), true);
});
