/**
 * Runs a standards fetch handler under node:http: request bodies stream in, every response chunk
 * is written as it comes (SSE needs that), and a client disconnect aborts `request.signal`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, setClientAddress } from './client-identity.js';

export type FetchHandler = (request: Request) => Promise<Response>;

export interface NodeListenerOptions {
  /**
   * Proxies in front of this server that append to `X-Forwarded-For` (default 0: the header is
   * ignored and the client is the socket's remote address).
   */
  trustProxy?: number;
}

/**
 * A node:http listener running a fetch handler: streamed request bodies in, each response chunk
 * flushed as written, a client disconnect aborting `request.signal`, and the client's address
 * (the socket's, or per `trustProxy`) attached for the rate limit.
 *
 * @example
 * createServer(toNodeListener(createWaveHandler(options))).listen(8787);
 */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    const request = toRequest(req, controller.signal);
    setClientAddress(request, clientAddress(req.socket.remoteAddress, request.headers, options.trustProxy ?? 0));
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
    init.body = bodyStream(req);
    init.duplex = 'half';
  }
  // A fixed origin: the Host header is the client's to choose and the handler needs only the path.
  return new Request(new URL(req.url ?? '/', 'http://localhost').href, init);
}

/**
 * The request body as a web stream with back-pressure. Unlike `Readable.toWeb`, data that is
 * still arriving after the handler cancelled the body (a 413) is discarded, not enqueued into a
 * closed stream (which throws outside any handler and would stop the process).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  // These run in socket event listeners: whatever happened to the stream, never throw there.
  const guard = (fn: () => void) => {
    try {
      fn();
    } catch {
      done = true;
      req.resume();
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (done) return;
          guard(() => {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 1) <= 0) req.pause();
          });
        });
        req.on('end', () => {
          if (done) return;
          done = true;
          guard(() => controller.close());
        });
        req.on('error', (error) => {
          if (done) return;
          done = true;
          guard(() => controller.error(error));
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        // Read and drop the rest, so the connection can answer.
        done = true;
        req.resume();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
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
      if (!res.write(value)) {
        // Wait for room, or for the client to go (then we stop).
        if (!res.destroyed) await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
        if (res.destroyed) break;
      }
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

