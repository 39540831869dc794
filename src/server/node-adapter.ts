/**
 * Runs a standards fetch handler under node:http: request bodies stream in, every response chunk
 * is written as it comes (SSE needs that), and a client disconnect aborts `request.signal`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * A node:http listener running a fetch handler: streamed request bodies in, each response chunk
 * flushed as written, and a client disconnect aborting `request.signal`.
 *
 * @example
 * createServer(toNodeListener(createWaveHandler(options))).listen(8787);
 */
export function toNodeListener(
  handler: FetchHandler,
  options: { remoteAddresses?: WeakMap<Request, string> } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    const request = toRequest(req, controller.signal);
    if (options.remoteAddresses) options.remoteAddresses.set(request, req.socket.remoteAddress ?? 'unknown');
    handler(request)
      .then((response) => writeResponse(res, response, controller.signal))
      .catch(() => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ error: { code: 'internal_error', message: 'The wave server failed.' } }));
        } else res.destroy();
      });
  };
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.startsWith(':')) continue;
    try {
      headers.append(name, req.rawHeaders[i + 1]!);
    } catch {
      // A header the fetch Headers class refuses is not one the handler reads.
    }
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  // A fixed origin: the Host header is the client's to choose and the handler needs only the path.
  return new Request(new URL(req.url ?? '/', 'http://localhost').href, init);
}

async function writeResponse(res: ServerResponse, response: Response, signal: AbortSignal): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const onAbort = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((r) => res.once('drain', r));
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

