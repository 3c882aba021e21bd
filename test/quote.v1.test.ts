import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Error, expectV1Headers } from './support/assertions';
import { ADDR, ETH_TO_BTC, keyPaths, USDC_ETH_TO_ARB, WALLETS } from './support/fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PROVIDER_DEADLINE_MS: '1000' });
});
afterAll(() => t?.stop());
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});

const quote = (body: unknown) => t.post('/api/v1/quote', body);

describe('POST /api/v1/quote — routes', () => {
  it('returns routes from several providers, best first, with every spec field and no exec', async () => {
    const res = await quote(ETH_TO_BTC);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectV1Headers(res.headers);
    expect(Object.keys(res.body)).toEqual(['data']);
    const routes = res.body.data;
    const providers = new Set(routes.map((r: any) => r.provider));
    expect(providers.size).toBeGreaterThanOrEqual(3);
    for (const route of routes) {
      for (const field of ['provider', 'routeId', 'src', 'dst', 'fee', 'feeBreakdown', 'estimatedTime', 'steps']) {
        expect(route, field).toHaveProperty(field);
      }
      expect(route.src).toMatchObject({ currency: 'ETH', formatted: expect.stringContaining('1.5') });
      expect(typeof route.src.usd).toBe('string');
      expect(route.dst.currency).toBe('BTC');
      expect(Number(route.dst.amount)).toBeGreaterThan(0);
      expect(typeof route.fee).toBe('object');
      expect(typeof route.estimatedTime).toBe('number');
      expect(Array.isArray(route.steps)).toBe(true);
      for (const step of route.steps)
        expect(step).toEqual({ type: expect.any(String), name: expect.any(String), image: expect.any(String) });
    }
    const usd = routes.map((r: any) => Number(r.dst.usd));
    expect(usd).toEqual([...usd].sort((a, b) => b - a));
    const paths = keyPaths(res.body);
    expect(paths.filter((p) => /\.exec(\.|$)/.test(p) || /providerQuote/.test(p))).toEqual([]);
  });

  it('keeps routeIds stable across a re-quote of the same request', async () => {
    const first = (await quote(ETH_TO_BTC)).body.data.map((r: any) => `${r.provider}/${r.routeId}`).sort();
    const second = (await quote(ETH_TO_BTC)).body.data.map((r: any) => `${r.provider}/${r.routeId}`).sort();
    expect(second).toEqual(first);
  });

  it('quotes without wallets (they are only recommended at preview)', async () => {
    const { depositor: _d, recipient: _r, ...anonymous } = ETH_TO_BTC;
    const res = await quote(anonymous);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('honours exclude', async () => {
    const res = await quote({ ...ETH_TO_BTC, exclude: ['THORCHAIN', 'relay'] });
    expect(res.status).toBe(200);
    const providers = res.body.data.map((r: any) => r.provider);
    expect(providers.length).toBeGreaterThan(0);
    expect(providers).not.toContain('THORCHAIN');
    expect(providers).not.toContain('RELAY');
  });

  it('matches EVM addresses case-insensitively and accepts native aliases', async () => {
    const lower = await quote({ ...USDC_ETH_TO_ARB, srcAddress: ADDR.ethUsdc.toLowerCase() });
    expect(lower.status).toBe(200);
    expect(lower.body.data.length).toBeGreaterThan(0);
    const alias = await quote({ ...ETH_TO_BTC, srcAddress: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' });
    expect(alias.status).toBe(200);
    expect(alias.body.data[0].src.currency).toBe('ETH');
  });

  it('answers 200 with an empty list when no provider has a route', async () => {
    for (const sim of Object.values(t.sims)) sim.configure({ faults: { quote: 'noroute' } });
    const res = await quote(ETH_TO_BTC);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it('answers 200 with an empty list when no provider serves the pair', async () => {
    const res = await quote({ ...ETH_TO_BTC, exclude: ['THORCHAIN', 'RELAY', 'CHAINFLIP', 'LIFI'] });
    expect(res.body).toEqual({ data: [] });
  });

  it('drops a hanging and a failing provider and answers without them (how close to the deadline: npm run bench)', async () => {
    t.sims.THORCHAIN.configure({ faults: { quote: 'hang' } });
    t.sims.RELAY.configure({ faults: { quote: 'error5xx' } });
    const res = await quote(ETH_TO_BTC);
    expect(res.status).toBe(200);
    const providers = new Set(res.body.data.map((r: any) => r.provider));
    expect(providers.has('THORCHAIN')).toBe(false);
    expect(providers.has('RELAY')).toBe(false);
    expect(providers.size).toBeGreaterThan(0);
  });

  it('treats a malformed upstream answer as that provider failing, not as a 500', async () => {
    t.sims.LIFI.configure({ faults: { quote: 'malformed' } });
    t.sims.CHAINFLIP.configure({ faults: { quote: 'oversized' } });
    const res = await quote(ETH_TO_BTC);
    expect(res.status).toBe(200);
    const providers = new Set(res.body.data.map((r: any) => r.provider));
    expect(providers.has('LIFI')).toBe(false);
    expect(providers.has('CHAINFLIP')).toBe(false);
  });

  it('answers 503 when every candidate provider failed', async () => {
    for (const sim of Object.values(t.sims)) sim.configure({ faults: { quote: 'error5xx' } });
    expectV1Error(await quote(ETH_TO_BTC), 503, 'SERVICE_UNAVAILABLE');
  });
});

describe('POST /api/v1/quote — validation', () => {
  it('reports every missing field together', async () => {
    const res = await quote({});
    expectV1Error(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors.map((e: any) => e.field).sort()).toEqual(
      ['amount', 'dstAddress', 'dstChain', 'srcAddress', 'srcChain'].sort(),
    );
  });

  it.each([['abc'], ['0'], ['0.000'], ['-1'], ['1e5'], ['1,5'], [' 1'], ['0x10'], ['Infinity'], ['']])(
    'refuses amount %j with INVALID_AMOUNT',
    async (amount) => {
      expectV1Error(await quote({ ...USDC_ETH_TO_ARB, amount }), 400, 'INVALID_AMOUNT', 'amount');
    },
  );

  it('refuses more decimals than the asset has, and non-string amounts', async () => {
    expectV1Error(await quote({ ...USDC_ETH_TO_ARB, amount: '1.0000001' }), 400, 'INVALID_AMOUNT', 'amount');
    expect((await quote({ ...USDC_ETH_TO_ARB, amount: '1.000001' })).status).toBe(200);
    expectV1Error(await quote({ ...USDC_ETH_TO_ARB, amount: 1.5 }), 400, 'INVALID_AMOUNT', 'amount');
  });

  it.each([[-1], [10_001], [1.5], ['100'], [null]])('refuses slippage %j with INVALID_SLIPPAGE', async (slippage) => {
    expectV1Error(await quote({ ...ETH_TO_BTC, slippage }), 400, 'INVALID_SLIPPAGE', 'slippage');
  });

  it('accepts slippage at both bounds', async () => {
    expect((await quote({ ...ETH_TO_BTC, slippage: 0 })).status).toBe(200);
    expect((await quote({ ...ETH_TO_BTC, slippage: 10_000 })).status).toBe(200);
  });

  it.each([
    ['depositor', { depositor: '0x8617E340B3D01FA5F11F306F4090FD50E238070d' }],
    ['depositor', { depositor: WALLETS.bitcoin }],
    ['recipient', { recipient: WALLETS.evm }],
    ['recipient', { recipient: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5' }],
    ['depositor', { depositor: 42 }],
  ])('refuses a bad %s with INVALID_ADDRESS', async (field, patch) => {
    expectV1Error(await quote({ ...ETH_TO_BTC, ...patch }), 400, 'INVALID_ADDRESS', field);
  });

  it('validates addresses for each chain type', async () => {
    const toCosmos = { ...ETH_TO_BTC, dstChain: 'cosmoshub', dstAddress: 'native' };
    expect((await quote({ ...toCosmos, recipient: WALLETS.cosmos })).status).toBe(200);
    expectV1Error(
      await quote({ ...toCosmos, recipient: 'thor1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd02' }),
      400,
      'INVALID_ADDRESS',
      'recipient',
    );
    const toSolana = { ...ETH_TO_BTC, dstChain: 'solana', dstAddress: 'native' };
    expect((await quote({ ...toSolana, recipient: WALLETS.solana })).status).toBe(200);
    expectV1Error(await quote({ ...toSolana, recipient: WALLETS.ton }), 400, 'INVALID_ADDRESS', 'recipient');
    const toTon = { ...ETH_TO_BTC, dstChain: 'ton', dstAddress: 'native' };
    expect((await quote({ ...toTon, recipient: WALLETS.ton })).status).toBe(200);
    expectV1Error(await quote({ ...toTon, recipient: WALLETS.solana }), 400, 'INVALID_ADDRESS', 'recipient');
  });

  it('reports two bad addresses with the shared code', async () => {
    const res = await quote({ ...ETH_TO_BTC, depositor: 'nope', recipient: 'nope' });
    expectV1Error(res, 400, 'INVALID_ADDRESS', 'depositor');
    expect(res.body.error.details.errors.map((e: any) => e.field)).toEqual(['depositor', 'recipient']);
  });

  it('reports a mix of problems as VALIDATION_ERROR with each code in details', async () => {
    const res = await quote({ ...ETH_TO_BTC, amount: '-5', slippage: 20_000, recipient: 'x', dstChain: 'atlantis' });
    expectV1Error(res, 400, 'VALIDATION_ERROR');
    const codes = Object.fromEntries(res.body.error.details.errors.map((e: any) => [e.field, e.code]));
    expect(codes).toMatchObject({
      amount: 'INVALID_AMOUNT',
      slippage: 'INVALID_SLIPPAGE',
      dstChain: 'VALIDATION_ERROR',
    });
  });

  it.each([
    ['same address', { dstChain: 'ethereum', dstAddress: ADDR.ethUsdc }],
    ['EVM case difference', { dstChain: 'ethereum', dstAddress: ADDR.ethUsdc.toLowerCase() }],
  ])('refuses the same asset on the same chain (%s) with UNSUPPORTED_PAIR', async (_, patch) => {
    expectV1Error(await quote({ ...USDC_ETH_TO_ARB, recipient: WALLETS.evm2, ...patch }), 400, 'UNSUPPORTED_PAIR');
  });

  it.each(['native', '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'])(
    'refuses ETH to ETH through the native alias %s',
    async (dstAddress) => {
      const res = await quote({ ...ETH_TO_BTC, dstChain: 'ethereum', dstAddress, recipient: WALLETS.evm2 });
      expectV1Error(res, 400, 'UNSUPPORTED_PAIR', 'dstAddress');
    },
  );

  it('refuses unknown chains and unlisted assets on their field', async () => {
    expectV1Error(await quote({ ...ETH_TO_BTC, srcChain: 'atlantis' }), 400, 'VALIDATION_ERROR', 'srcChain');
    expectV1Error(
      await quote({ ...ETH_TO_BTC, srcAddress: '0x1111111111111111111111111111111111111111' }),
      400,
      'VALIDATION_ERROR',
      'srcAddress',
    );
    expectV1Error(await quote({ ...ETH_TO_BTC, dstAddress: 'BTC' }), 400, 'VALIDATION_ERROR', 'dstAddress');
  });

  it('refuses mistyped fields and an oversized exclude list', async () => {
    expectV1Error(await quote({ ...ETH_TO_BTC, srcChain: 1 }), 400, 'VALIDATION_ERROR', 'srcChain');
    expectV1Error(await quote({ ...ETH_TO_BTC, exclude: 'THORCHAIN' }), 400, 'VALIDATION_ERROR', 'exclude');
    expectV1Error(await quote({ ...ETH_TO_BTC, exclude: Array(21).fill('X') }), 400, 'VALIDATION_ERROR', 'exclude');
  });
});
