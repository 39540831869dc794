/**
 * A real redis-server (Debian's package) for the tests, on a free loopback port, with no
 * persistence; stopped by `stop()`. Throws with a clear message when redis-server is missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisProcess {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startOnce(port: number): Promise<RedisProcess | 'busy'> {
  const child = spawn(
    process.env.REDIS_SERVER ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const ready = await new Promise<boolean>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`cannot start redis-server (apt-get install redis-server): ${error.message}`)));
    child.once('exit', () => resolve(false));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve(true);
    });
  });
  if (!ready) {
    if (/Address already in use/i.test(output)) return 'busy';
    throw new Error(`redis-server exited at start:\n${output}`);
  }
  child.stdout!.resume();
  child.stderr!.resume();
  // A test process that dies (or is killed by a timeout) before its `after` hook must not leave redis running.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Starts redis-server on a free port (retrying if another process takes the port first). */
export async function startRedis(): Promise<RedisProcess> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const started = await startOnce(await freePort());
    if (started !== 'busy') return started;
  }
  throw new Error('redis-server: no free port after 5 attempts');
}
