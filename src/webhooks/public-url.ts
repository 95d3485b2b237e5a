/**
 * Strapi refuses, in production, a webhook whose host is the machine itself or a private network
 * (its `is-public-url` test): the service would otherwise post its content to internal addresses
 * on an API caller's word. The host's every address must be public.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(prefix, bits, 'ipv6');

export const NOT_PUBLIC_MESSAGE = "Url is not supported because it isn't reachable over the public internet";

function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return !NOT_PUBLIC.check(address, family);
}

/** Whether every address `url`'s host names is public; a host that does not resolve is not. */
export async function isPublicUrl(url: string): Promise<boolean> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return false;
  }
  if (isIP(host) !== 0) return isPublicAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every(({ address }) => isPublicAddress(address));
  } catch {
    return false;
  }
}
