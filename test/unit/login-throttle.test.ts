import { describe, expect, it } from 'vitest';
import { addressBucket } from '../../src/http/login-throttle.js';

describe('addressBucket: which client addresses share login counters', () => {
  it('keeps IPv4 addresses, also when mapped into IPv6', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('reduces IPv6 addresses to their /64, however they are written', () => {
    const bucket = '2001:db8:0:1::/64';
    for (const address of ['2001:db8:0:1::1', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8:0:1:0:0:0:0', '2001:db8::1:0:0:0:5', '2001:db8:0:1::5%eth0', '2001:db8:0:1::192.0.2.1']) {
      expect(addressBucket(address), address).toBe(bucket);
    }
    expect(addressBucket('2001:db8::1:2:3:4:5')).toBe('2001:db8:0:1::/64');
    expect(addressBucket('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('leaves anything that is not an IP address as it is', () => {
    expect(addressBucket('')).toBe('');
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
