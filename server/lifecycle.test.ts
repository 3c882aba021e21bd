import { Agent, createServer, request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { drainHttpServer, isPortFree, listen, PortInUseError } from './lifecycle';

function get(port: number, path: string, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('drainHttpServer', () => {
  it('answers the request in flight, refuses new connections and closes kept-alive ones', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const server = createServer(async (req, res) => {
      if (req.url === '/slow') {
        arrived();
        await gate;
      }
      res.end('done');
    });
    // Longer than the test's own timeout: the drain must not wait for kept-alive connections to expire.
    server.keepAliveTimeout = 65_000;
    const port = await listen(server, 0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true });
    const idle = new Agent({ keepAlive: true });
    expect(await get(port, '/', idle)).toEqual({ status: 200, body: 'done' });

    const inFlight = get(port, '/slow', agent);
    await requestArrived;
    const drained = drainHttpServer(server);
    expect(await isPortFree(port, '127.0.0.1')).toBe(true);
    release();

    expect(await inFlight).toEqual({ status: 200, body: 'done' });
    await drained;
    agent.destroy();
    idle.destroy();
  });
});

describe('listen', () => {
  it('names the port and the setting that moves it when the port is taken', async () => {
    const holder = createNetServer();
    const port = await listen(holder, 0, '127.0.0.1');
    try {
      const error = await listen(createNetServer(), port, '127.0.0.1', 'PORT').catch((e) => e);
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error.message).toBe(`port ${port} is in use; set PORT to another port`);
      expect(await isPortFree(port, '127.0.0.1')).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
