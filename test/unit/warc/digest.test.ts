import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { base32, EMPTY_DIGEST, warcDigest } from '../../../electron/engine/warc/digest.js';

describe('base32', () => {
  it('matches the RFC 4648 test vectors, padding included', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY======'],
      ['fo', 'MZXQ===='],
      ['foo', 'MZXW6==='],
      ['foob', 'MZXW6YQ='],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI======'],
    ];
    for (const [text, encoded] of vectors) assert.equal(base32(Buffer.from(text)), encoded);
  });

  it('gives the SHA-1 form other WARC tools write (jwarc test vector)', () => {
    assert.equal(base32(createHash('sha1').update('hello world').digest()), 'FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN');
  });
});

describe('warcDigest', () => {
  it('is sha256:<padded base32> over all parts, as one stream', () => {
    const whole = warcDigest([Buffer.from('hello world')]);
    assert.equal(warcDigest([Buffer.from('hello '), Buffer.from('world')]), whole);
    // python: 'sha256:' + base64.b32encode(hashlib.sha256(b'hello world').digest()).decode()
    assert.equal(whole, 'sha256:XFGSPOMTJU7ARJJOKLL5U7NL7LCIJ37DPJJYB3UQRD32ZYXPZXUQ====');
    assert.equal(EMPTY_DIGEST, 'sha256:4OYMIQUY7QOBJGX36TEJS35ZEQT24QPEMSNZGTFESWMRW6CSXBKQ====');
  });
});
