import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

describe('project scripts', () => {
  it('turn off Next.js telemetry wherever Next runs', () => {
    const runsNext = Object.entries(scripts).filter(([, command]) => /\bnext\b|web-server/.test(command));
    expect(runsNext.map(([name]) => name).sort()).toEqual(['build', 'dev', 'start:web']);
    for (const [name, command] of runsNext) expect(command, name).toContain('NEXT_TELEMETRY_DISABLED=1');
    for (const script of ['scripts/up.sh', 'scripts/test.sh', 'scripts/e2e-server.sh']) {
      expect(read(script), script).toMatch(/^export NEXT_TELEMETRY_DISABLED=1$/m);
    }
  });
});
