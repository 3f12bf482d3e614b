import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { CLI } from '../helpers/benchSite.js';

interface Started {
  arenas: string | null;
  execArgv: string[];
}

describe('harvest command line: how it starts', () => {
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'harvest-launch-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** Runs the bundle itself, as an installed `harvest` runs, with a module loaded first that writes down what node started with. */
  function startedWith(args: string[]): { started: Started; status: number | null; stderr: string } {
    const probe = path.join(work, 'probe.mjs');
    const out = path.join(work, `started-${args.join('-')}.json`);
    writeFileSync(
      probe,
      `import { writeFileSync } from 'node:fs';
writeFileSync(process.env.PROBE_OUT, JSON.stringify({ arenas: process.env.MALLOC_ARENA_MAX ?? null, execArgv: process.execArgv }));`,
    );
    const { MALLOC_ARENA_MAX: _unset, ...env } = process.env;
    const r = spawnSync(CLI, args, {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...env, PROBE_OUT: out, NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` },
    });
    assert.equal(r.error, undefined, `the bundle could not be run as a program: ${r.error?.message}`);
    return { started: JSON.parse(readFileSync(out, 'utf8')) as Started, status: r.status, stderr: r.stderr };
  }

  it('starts node with two malloc arenas, 2 MB semi-spaces and a larger interrupt budget, set by its #! line before the process starts', () => {
    const { started, status, stderr } = startedWith(['stats', '--help']);
    assert.equal(status, 0, stderr);
    assert.equal(started.arenas, '2');
    assert.ok(started.execArgv.includes('--max-semi-space-size=2'), `node started with ${JSON.stringify(started.execArgv)}`);
    assert.ok(started.execArgv.includes('--interrupt-budget=270336'), `node started with ${JSON.stringify(started.execArgv)}`);
  });
});
