import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import zlib from 'node:zlib';
import { decodeContent } from '../../../electron/engine/fetch/decompress.js';
import { brotliBomb, gzipBomb, isFetchError } from './fixtures.js';

const text = Buffer.from('<!doctype html><title>Harvest</title>'.repeat(200));
const MB = 1024 * 1024;

describe('decodeContent', () => {
  it('passes identity and absent encodings through', async () => {
    assert.deepEqual(await decodeContent(text, null, MB), text);
    assert.deepEqual(await decodeContent(text, 'identity', MB), text);
  });

  it('decodes gzip and x-gzip', async () => {
    assert.deepEqual(await decodeContent(zlib.gzipSync(text), 'gzip', MB), text);
    assert.deepEqual(await decodeContent(zlib.gzipSync(text), 'X-Gzip', MB), text);
  });

  it('decodes deflate both zlib-wrapped and raw', async () => {
    assert.deepEqual(await decodeContent(zlib.deflateSync(text), 'deflate', MB), text);
    assert.deepEqual(await decodeContent(zlib.deflateRawSync(text), 'deflate', MB), text);
  });

  it('decodes br', async () => {
    assert.deepEqual(await decodeContent(zlib.brotliCompressSync(text), 'br', MB), text);
  });

  it('undoes several codings, last applied first', async () => {
    const wire = zlib.brotliCompressSync(zlib.gzipSync(text));
    assert.deepEqual(await decodeContent(wire, 'gzip, br', MB), text);
  });

  it('leaves an empty body alone whatever the header says', async () => {
    assert.equal((await decodeContent(Buffer.alloc(0), 'gzip', MB)).length, 0);
  });

  it('yields what a truncated gzip stream holds', async () => {
    const wire = zlib.gzipSync(text);
    const body = await decodeContent(wire.subarray(0, wire.length - 8), 'gzip', MB);
    assert.deepEqual(body, text);
  });

  it('rejects garbage and unknown codings with code decode', async () => {
    await assert.rejects(decodeContent(Buffer.from('not gzip at all'), 'gzip', MB), isFetchError('decode'));
    await assert.rejects(decodeContent(text, 'zstd', MB), isFetchError('decode'));
  });

  it('stops a gzip bomb at the limit', async () => {
    const bomb = gzipBomb(1024); // ~1 MiB that decodes to 1 GiB
    await assert.rejects(decodeContent(bomb, 'gzip', 4 * MB), isFetchError('too-large'));
  });

  it('stops a brotli bomb at the limit', async () => {
    const bomb = await brotliBomb(1024); // under 2 KiB that decodes to 1 GiB
    assert.ok(bomb.length < 4096, `bomb is ${bomb.length} bytes`);
    await assert.rejects(decodeContent(bomb, 'br', 4 * MB), isFetchError('too-large'));
  });

  describe('output over 1 MiB: room asked for its exact size before it is held, and decoded into a buffer of that size', () => {
    const large = Buffer.alloc(3 * MB + 123, 'x');
    large.write('<!doctype html><title>Large</title>');
    const decode = async (wire: Buffer, coding: string, maxBytes = 100 * MB) => {
      const asked: number[] = [];
      const body = await decodeContent(wire, coding, maxBytes, {
        room: async (bytes) => {
          asked.push(bytes);
        },
      });
      return { body, asked };
    };
    const cases: [string, string, Buffer][] = [
      ['gzip (its trailer gives the size)', 'gzip', zlib.gzipSync(large)],
      ['deflate (the size is counted)', 'deflate', zlib.deflateSync(large)],
      ['raw deflate', 'deflate', zlib.deflateRawSync(large)],
      ['br', 'br', zlib.brotliCompressSync(large)],
    ];
    for (const [name, coding, wire] of cases) {
      it(name, async () => {
        const { body, asked } = await decode(wire, coding);
        assert.ok(body.equals(large), 'decoded whole');
        assert.deepEqual(asked, [large.length]);
        assert.equal(body.buffer.byteLength, large.length, 'held once, in a buffer of its own size');
      });
    }

    it('a gzip of several members, whose trailer gives the last one only: counted instead', async () => {
      const wire = Buffer.concat([zlib.gzipSync(large), zlib.gzipSync(large)]);
      const { body, asked } = await decode(wire, 'gzip');
      assert.ok(body.equals(Buffer.concat([large, large])));
      assert.deepEqual(asked, [large.length, 2 * large.length], 'room for what the trailer said, then for what was counted');
    });

    it('a truncated stream yields what it holds', async () => {
      const wire = zlib.gzipSync(large);
      const { body } = await decode(wire.subarray(0, wire.length - 8), 'gzip');
      assert.ok(body.equals(large));
    });

    it('a bomb over the limit: too-large, and no room asked for it', async () => {
      const asked: number[] = [];
      await assert.rejects(decodeContent(gzipBomb(16), 'gzip', 4 * MB, { room: async (b) => void asked.push(b) }), isFetchError('too-large'));
      await assert.rejects(decodeContent(zlib.deflateSync(Buffer.alloc(16 * MB)), 'deflate', 4 * MB, { room: async (b) => void asked.push(b) }), isFetchError('too-large'));
      assert.deepEqual(asked, []);
    });

    it('exactly the limit is accepted, one byte more is too large', async () => {
      for (const coding of ['gzip', 'deflate']) {
        const wire = coding === 'gzip' ? zlib.gzipSync(large) : zlib.deflateSync(large);
        assert.equal((await decode(wire, coding, large.length)).body.length, large.length);
        await assert.rejects(decode(wire, coding, large.length - 1), isFetchError('too-large'));
      }
    });
  });

  it('accepts a body exactly at the limit', async () => {
    const exact = Buffer.alloc(1000, 'a');
    assert.equal((await decodeContent(zlib.gzipSync(exact), 'gzip', 1000)).length, 1000);
    await assert.rejects(decodeContent(zlib.gzipSync(exact), 'gzip', 999), isFetchError('too-large'));
  });
});
