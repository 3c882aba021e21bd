import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../server/config';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every environment variable the config reads', () => {
    const providerPrefixes = ['THORCHAIN_', 'RELAY_', 'CHAINFLIP_', 'LIFI_'];
    const missing = Object.keys(envSchema.shape).filter((name) => {
      const generic = providerPrefixes.reduce((n, p) => (n.startsWith(p) ? `<P>_${n.slice(p.length)}` : n), name);
      const rateClass = name.replace(/^RATE_LIMIT_(QUOTE|EXECUTE|TRANSACTIONS)$/, 'RATE_LIMIT_CATALOG');
      return ![name, generic, rateClass].some(
        (n) => readme.includes(`\`${n}\``) || readme.includes(`\`${n} /`) || readme.includes(` ${n}\``),
      );
    });
    expect(missing).toEqual([]);
  });

  it('has a quick start of exactly two commands', () => {
    const quick = readme.split('## Quick start')[1]?.split('\n## ')[0] ?? '';
    const block = quick.split('```sh')[1]?.split('```')[0] ?? '';
    const commands = block
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split('#')[0]?.trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm run up', 'npm test']);
  });
});
