import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCidr } from '../../../shared/cidr.js';
import { ADDRESS_REFUSED, AddressPolicy } from '../../../electron/engine/fetch/addressPolicy.js';

describe('AddressPolicy', () => {
  const policy = new AddressPolicy(['http://intranet.uni.example/', 'http://[fd00::5]/'], ['10.20.0.0/16']);

  it('refuses loopback, private, link-local and unspecified addresses for a host no seed names', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '10.0.0.1', '172.16.3.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fd12::1', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254']) {
      assert.match(policy.refusal('cdn.example', a) ?? '', /private or local network/, a);
    }
  });

  it('allows public addresses, a seed host anywhere, and the networks the job lists', () => {
    for (const a of ['93.184.216.34', '172.32.0.1', '192.169.0.1', '2001:db8::1', '100.64.0.1']) assert.equal(policy.refusal('cdn.example', a), null, a);
    assert.equal(policy.refusal('intranet.uni.example', '10.1.2.3'), null);
    assert.equal(policy.refusal('INTRANET.uni.example', '127.0.0.1'), null);
    assert.equal(policy.refusal('[fd00::5]', 'fd00::5'), null);
    assert.equal(policy.refusal('files.uni.example', '10.20.7.1'), null);
    assert.notEqual(policy.refusal('files.uni.example', '10.21.7.1'), null);
  });

  it('checks the address a name resolves to, for the connection itself', async () => {
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => policy.lookup('localhost', { all: true }, (e) => resolve(e)));
    assert.equal(refused?.code, ADDRESS_REFUSED);
    assert.match(refused?.message ?? '', /^localhost is at (127\.0\.0\.1|::1)/);
    const open = new AddressPolicy([], ['127.0.0.0/8', '::1/128']);
    const addresses = await new Promise<unknown>((resolve, reject) => open.lookup('localhost', { all: true }, (e, a) => (e ? reject(e) : resolve(a))));
    assert.ok(Array.isArray(addresses) && addresses.length > 0);
  });
});

describe('parseCidr', () => {
  it('reads IPv4 and IPv6 networks and refuses anything else', () => {
    assert.deepEqual(parseCidr('10.0.0.0/8'), { address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    assert.deepEqual(parseCidr(' FD00::/8 '), { address: 'fd00::', prefix: 8, family: 'ipv6' });
    for (const bad of ['10.0.0.0', '10.0.0.0/33', '256.0.0.0/8', 'fd00::/129', 'a::b::c/64', 'example.org/8', '']) assert.equal(parseCidr(bad), null, bad);
  });
});
