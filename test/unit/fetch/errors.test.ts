import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errors } from 'undici';
import { classifyError, FetchError } from '../../../electron/engine/fetch/errors.js';

function systemError(code: string): Error {
  return Object.assign(new Error(`failed ${code}`), { code });
}

describe('classifyError', () => {
  it('names undici timeouts and retries them', () => {
    for (const [err, code] of [
      [new errors.ConnectTimeoutError(), 'timeout-connect'],
      [new errors.HeadersTimeoutError(), 'timeout-headers'],
      [new errors.BodyTimeoutError(), 'timeout-body-idle'],
    ] as const) {
      const fe = classifyError(err);
      assert.equal(fe.code, code);
      assert.equal(fe.retryable, true);
      assert.equal(fe.cause, err);
    }
  });

  it('retries resets and closed sockets but not refusals or unknown hosts', () => {
    assert.deepEqual(pick(classifyError(systemError('ECONNRESET'))), ['network', true]);
    assert.deepEqual(pick(classifyError(new errors.SocketError('other side closed'))), ['network', true]);
    assert.deepEqual(pick(classifyError(systemError('ECONNREFUSED'))), ['network', false]);
    assert.deepEqual(pick(classifyError(systemError('ENOTFOUND'))), ['dns', false]);
    assert.deepEqual(pick(classifyError(systemError('EAI_AGAIN'))), ['dns', true]);
  });

  it('names TLS and protocol failures, not retried', () => {
    assert.deepEqual(pick(classifyError(systemError('CERT_HAS_EXPIRED'))), ['tls', false]);
    assert.deepEqual(pick(classifyError(systemError('ERR_TLS_CERT_ALTNAME_INVALID'))), ['tls', false]);
    assert.deepEqual(pick(classifyError(systemError('HPE_INVALID_CONSTANT'))), ['protocol', false]);
  });

  it('names broken framing a protocol failure, not retried: a parser error without a code, a Content-Length mismatch', () => {
    const parserError = Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid character in chunk size)'), {
      name: 'HTTPParserError',
      code: undefined,
    });
    assert.deepEqual(pick(classifyError(parserError)), ['protocol', false]);
    assert.deepEqual(pick(classifyError(new errors.ResponseContentLengthMismatchError())), ['protocol', false]);
  });

  it('passes FetchErrors through unchanged', () => {
    const fe = new FetchError('deadline', 'too slow');
    assert.equal(classifyError(fe), fe);
  });

  it('keeps the original code in the message', () => {
    assert.match(classifyError(systemError('ECONNRESET')).message, /ECONNRESET/);
  });
});

function pick(fe: FetchError): [string, boolean] {
  return [fe.code, fe.retryable];
}
