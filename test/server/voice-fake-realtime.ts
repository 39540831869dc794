// A local fake of the Realtime API's WebSocket event protocol, shared by the realtime voice tests.
import { afterEach } from 'node:test';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { Clock } from '../../src/clock.js';

export type Frame = { type: string; [key: string]: unknown };

/** A manual clock: timers fire only when the test advances time. */
export function manualClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      timers.set(++nextId, { at: now + ms, fn });
      return nextId;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      now += ms;
      const due = [...timers].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at);
      for (const [id, t] of due) {
        timers.delete(id);
        t.fn();
      }
    },
  };
}

/** One client connection as the fake server sees it. */
export class FakeConnection {
  readonly frames: Frame[] = [];
  private waiters: Array<(f: Frame) => void> = [];
  constructor(
    readonly socket: WebSocket,
    readonly protocols: string[],
  ) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      const waiter = this.waiters.shift();
      if (waiter) waiter(frame);
      else this.frames.push(frame);
    });
  }
  next(): Promise<Frame> {
    const frame = this.frames.shift();
    if (frame) return Promise.resolve(frame);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  emit(event: Frame): void {
    this.socket.send(JSON.stringify(event));
  }
}

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

export async function fakeRealtimeServer() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (p) => (p.has('realtime') ? 'realtime' : false) });
  servers.push(server);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const connections: FakeConnection[] = [];
  const waiting: Array<(c: FakeConnection) => void> = [];
  server.on('connection', (socket, req) => {
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((s) => s.trim());
    const conn = new FakeConnection(socket, protocols);
    const waiter = waiting.shift();
    if (waiter) waiter(conn);
    else connections.push(conn);
  });
  return {
    url: `ws://127.0.0.1:${port}/v1/realtime?model=gpt-realtime`,
    connection(): Promise<FakeConnection> {
      const conn = connections.shift();
      return conn ? Promise.resolve(conn) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

