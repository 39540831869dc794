/**
 * Who a request comes from, for the rate limit. Standards-only: each runtime entry learns the peer
 * from its own trusted source (Node: the socket; Deno and Bun: their connection info; Workers:
 * `CF-Connecting-IP`, which Cloudflare sets itself) and attaches it with `setClientAddress`.
 *
 * `X-Forwarded-For` is read only when the operator says how many proxies in front of the server
 * append to it (`WAVE_TRUST_PROXY`, default 0: the header is ignored). With N trusted hops the
 * client is the Nth address from the right: everything further left was written by the client
 * (or by a proxy we do not know) and can be anything.
 */

const addresses = new WeakMap<Request, string>();

/** Records the client address a runtime entry established for this request. */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

/** The client address a runtime entry attached; undefined when none did (an unidentified request). */
export function getClientAddress(request: Request): string | undefined {
  return addresses.get(request);
}

/**
 * Parses an IP address (v4, v6, bracketed v6, v4 with a port) to a canonical string, or undefined.
 * IPv4-mapped IPv6 becomes plain IPv4.
 */
export function normalizeIp(raw: string): string | undefined {
  let text = raw.trim();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return undefined;
    text = text.slice(1, end);
  } else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(text)) {
    text = text.slice(0, text.indexOf(':'));
  }
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  if (mapped) text = mapped[1]!;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) {
    const parts = text.split('.').map(Number);
    return parts.every((n) => n <= 255) ? parts.join('.') : undefined;
  }
  const groups = expandIpv6(text);
  return groups ? groups.map((g) => g.toString(16)).join(':') : undefined;
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function expandIpv6(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = normalizeIp(piece);
        if (!v4 || v4.includes(':')) return undefined;
        const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}

/**
 * The rate-limit key of an address: IPv4 as is; IPv6 by its /64 network, since one client
 * is routinely handed a whole /64 and could otherwise rotate through it.
 */
export function rateLimitKey(address: string): string {
  const ip = normalizeIp(address);
  if (!ip) return address;
  if (!ip.includes(':')) return ip;
  return `${ip.split(':').slice(0, 4).join(':')}::/64`;
}

/**
 * The client address of a request: `peer` (from the runtime) unless `trustProxy` hops are
 * configured, then the `trustProxy`th address from the right of `X-Forwarded-For`. A header
 * with fewer entries, or an entry that is not an IP address, means the request did not come
 * through the configured proxies: the peer is used, never a client-written value.
 *
 * @example
 * clientAddress('10.0.0.5', new Headers({ 'x-forwarded-for': '6.6.6.6, 203.0.113.7' }), 1); // '203.0.113.7'
 */
export function clientAddress(peer: string | undefined, headers: Headers, trustProxy: number): string | undefined {
  const fromPeer = peer === undefined ? undefined : (normalizeIp(peer) ?? undefined);
  if (trustProxy <= 0) return fromPeer;
  const header = headers.get('x-forwarded-for');
  if (!header) return fromPeer;
  const hops = header.split(',').map((s) => s.trim());
  if (hops.length < trustProxy) return fromPeer;
  return normalizeIp(hops[hops.length - trustProxy]!) ?? fromPeer;
}
