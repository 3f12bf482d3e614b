import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOT_A_WEB_ADDRESS, seedUrlProblem } from '../../../shared/seedUrl.js';
import { JobSchema } from '../../../shared/job.js';

describe('a mistyped seed is told its likely fix', () => {
  it('accepts web addresses', () => {
    for (const ok of ['http://example.org/', 'https://www.example.org/a?b', 'http://127.0.0.1:8080/', ' http://example.org ']) assert.equal(seedUrlProblem(ok), null, ok);
  });
  it('suggests the scheme meant', () => {
    assert.equal(seedUrlProblem('htp://example.org/'), `${NOT_A_WEB_ADDRESS}: did you mean http://example.org/?`);
    assert.equal(seedUrlProblem('htps://example.org'), `${NOT_A_WEB_ADDRESS}: did you mean https://example.org?`);
    assert.equal(seedUrlProblem('hhtp://example.org'), `${NOT_A_WEB_ADDRESS}: did you mean http://example.org?`);
    assert.equal(seedUrlProblem('http//example.org/'), `${NOT_A_WEB_ADDRESS}: did you mean http://example.org/?`);
    assert.equal(seedUrlProblem('ftp://example.org/'), `${NOT_A_WEB_ADDRESS}: Harvest cannot harvest ftp: addresses`);
  });
  it('adds a missing scheme', () => {
    assert.equal(seedUrlProblem('www.example.org/library'), `${NOT_A_WEB_ADDRESS}: did you mean https://www.example.org/library?`);
    assert.equal(seedUrlProblem('example.org:8080'), `${NOT_A_WEB_ADDRESS}: did you mean https://example.org:8080?`);
    assert.equal(seedUrlProblem('localhost:8080/'), `${NOT_A_WEB_ADDRESS}: did you mean https://localhost:8080/?`);
  });
  it('names an impossible port', () => {
    assert.match(seedUrlProblem('http://example.org:99999/') ?? '', /the port number '99999' cannot be right/);
    assert.match(seedUrlProblem('http://example.org:80a/') ?? '', /the port number '80a' cannot be right/);
  });
  it('falls back to the plain rule for anything else', () => {
    assert.equal(seedUrlProblem('not a url'), NOT_A_WEB_ADDRESS);
  });
  it("is the job's seed rule", () => {
    const parsed = JobSchema.safeParse({ seeds: ['htp://example.org/'] });
    assert.equal(parsed.success, false);
    assert.match(parsed.error?.issues[0]?.message ?? '', /did you mean http:\/\/example\.org\//);
  });
});
