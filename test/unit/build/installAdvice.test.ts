import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../helpers/benchSite.js';

describe("the install message's commands", () => {
  it('are the ones the README gives (npm run harvest -- …), not npx', () => {
    const script = readFileSync(path.join(PROJECT_ROOT, 'scripts', 'electron-binary.mjs'), 'utf8');
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const commands = [...script.matchAll(/'((?:npm|npx) [^']+)'/g)].map((m) => m[1]!);
    assert.ok(commands.length > 0);
    for (const c of commands) assert.ok(readme.includes(c), `${c} is not in the README`);
    assert.doesNotMatch(script, /npx harvest/);
  });
});
