import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { productEnv } from '../bench/soak/processes';
import { ConfigError, parseConfig } from '../server/config';
import { childEnv, exitWithin, freePort } from './support/processes';

/**
 * A production process never starts on a secret that is no secret: the sample AUTH_SECRET of a compose
 * file, a short one, or no rate-limit hash key of its own (which used to fall back to AUTH_SECRET).
 */
const ROOT = new URL('..', import.meta.url).pathname;
const random = () => randomBytes(32).toString('hex');
const SAMPLE = 'change-me-change-me-change-me-change-me';

const production = (env: Record<string, string | undefined>) => ({ NODE_ENV: 'production', ...env });
const refusal = (env: Record<string, string | undefined>) => {
  try {
    parseConfig(production(env));
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return undefined;
};

describe('production configuration', () => {
  it.each([
    ['the compose sample', SAMPLE],
    ['another sample wording', 'replace-me-with-a-long-random-secret-value-please'],
    ['a value of few characters', 'abababababababababababababababababab'],
    ['the development fallback', 'switchyard-development-only-auth_secret-not-secret'],
  ])('refuses %s as AUTH_SECRET, naming it', (_what, secret) => {
    expect(refusal({ AUTH_SECRET: secret, RATE_LIMIT_HASH_KEY: random() })).toMatch(
      /^Invalid configuration: AUTH_SECRET is a placeholder/,
    );
  });

  it('refuses a short AUTH_SECRET', () => {
    expect(refusal({ AUTH_SECRET: random().slice(0, 31), RATE_LIMIT_HASH_KEY: random() })).toMatch(
      /AUTH_SECRET: must be at least 32 characters/,
    );
  });

  it('refuses to start without a rate-limit hash key of its own', () => {
    const secret = random();
    expect(refusal({ AUTH_SECRET: secret })).toMatch(
      /^Invalid configuration: RATE_LIMIT_HASH_KEY is required in production/,
    );
    expect(refusal({ AUTH_SECRET: secret, RATE_LIMIT_HASH_KEY: secret })).toMatch(
      /^Invalid configuration: RATE_LIMIT_HASH_KEY is AUTH_SECRET again/,
    );
    expect(refusal({ AUTH_SECRET: secret, RATE_LIMIT_HASH_KEY: 'change-me-change-me' })).toMatch(
      /^Invalid configuration: RATE_LIMIT_HASH_KEY is a placeholder/,
    );
  });

  it('starts with two random secrets, hashing client addresses with the dedicated key', () => {
    const [secret, hashKey] = [random(), random()];
    const config = parseConfig(production({ AUTH_SECRET: secret, RATE_LIMIT_HASH_KEY: hashKey }));
    expect(config.authSecret).toBe(secret);
    expect(config.rateLimits.hashKey).toBe(hashKey);
  });

  it('accepts what `npm run up`, `npm test` and the e2e server export (scripts/auth-secret.sh), and the soak’s', () => {
    const dir = mkdtempSync(`${tmpdir()}/sy-secrets-`);
    try {
      const script = `source ${ROOT}scripts/auth-secret.sh && printf '%s\\n%s\\n' "$AUTH_SECRET" "$RATE_LIMIT_HASH_KEY"`;
      const out = spawnSync('bash', ['-c', script], { cwd: dir, env: childEnv({}), encoding: 'utf8' });
      const [secret, hashKey] = out.stdout.trim().split('\n');
      expect(refusal({ AUTH_SECRET: secret, RATE_LIMIT_HASH_KEY: hashKey })).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(refusal(productEnv)).toBeUndefined();
  });

  it('stops a production process at start with one line naming the setting, no stack', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/http/lean-server.ts'], {
      cwd: ROOT,
      env: childEnv(
        production({ AUTH_SECRET: SAMPLE, RATE_LIMIT_HASH_KEY: random(), API_PORT: String(await freePort()) }),
      ),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    try {
      expect(await exitWithin(child, 30_000)).toBe(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^\[api\] Invalid configuration: AUTH_SECRET is a placeholder; set it to a random value/),
    ]);
  }, 40_000);
});
