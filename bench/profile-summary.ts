/**
 * `npx tsx bench/profile-summary.ts <dir or .cpuprofile>…`: self time of V8 CPU profiles (as
 * `BENCH_CPU_PROF=<dir> npm run bench` writes for every bench child) summed by what the code is
 * for, so a profile reads as "where a request's CPU goes" rather than as a list of functions.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** First match wins: specific libraries before the generic buckets. */
const CATEGORIES: [string, RegExp][] = [
  ['idle', /^\((idle|program)\)$/],
  ['GC', /^\(garbage collector\)$/],
  ['zod', /node_modules\/zod\//],
  ['drizzle query building', /node_modules\/drizzle-orm\//],
  ['postgres.js driver', /node_modules\/postgres\//],
  ['BullMQ', /node_modules\/bullmq\//],
  ['ioredis', /node_modules\/(ioredis|redis-parser|cluster-key-slot|denque)\//],
  ['rate limiter', /node_modules\/rate-limiter-flexible\/|server\/ratelimit\//],
  [
    'logging (pino)',
    /node_modules\/(pino|sonic-boom|thread-stream|fast-redact|quick-format-unescaped)|server\/log\.ts/,
  ],
  ['metrics (prom-client)', /node_modules\/(prom-client|tdigest|bintrees)\//],
  [
    'Fetch Request/Response (undici, web streams)',
    /node:internal\/deps\/undici|internal\/webstreams|node:internal\/(webstreams|abort_controller|event_target)/,
  ],
  ['AsyncLocalStorage / async hooks', /async_hooks|async_local_storage|async_context_frame/],
  ['URL parsing', /node:internal\/url|^(parse|URL)$/],
  ['crypto (HMAC, ids)', /node:(internal\/)?crypto/],
  ['timers', /node:(internal\/)?timers/],
  [
    'node:http + net',
    /node:(_http|http|net|internal\/http|internal\/stream_base|internal\/streams|stream|internal\/js_stream)/,
  ],
  [
    'module loading (start-up)',
    /node_modules\/(tsx|esbuild)\/|node:internal\/(modules|deps\/cjs-module-lexer|source_map|worker|bootstrap)/,
  ],
  ['socket writes (syscalls)', /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString)$/],
  ['JSON', /^JSON\.|^(stringify|parse)$/],
  ['our code (server/, workers/)', /\/(server|workers)\//],
  ['other node_modules', /node_modules\//],
  ['node internals', /^node:|internal\//],
];

function categorise(frame: ProfileNode['callFrame']): string {
  const key = frame.url || frame.functionName;
  for (const [name, pattern] of CATEGORIES) {
    if (pattern.test(key) || (!frame.url && pattern.test(frame.functionName))) return name;
  }
  return frame.url ? 'other' : `native: ${frame.functionName || '(anonymous)'}`;
}

function summarise(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const category = categorise(node.callFrame);
    out.set(category, (out.get(category) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return out;
}

/** With PROFILE_DETAIL=<category>: that category's functions by self time. */
function topFunctions(profile: Profile, category: string): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame || categorise(frame) !== category) return;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '')}`;
    out.set(name, (out.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...out].sort((a, b) => b[1] - a[1]);
}

const files = process.argv.slice(2).flatMap((arg) =>
  statSync(arg).isDirectory()
    ? readdirSync(arg)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(arg, f))
    : [arg],
);
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const totals = summarise(profile);
  const idle = totals.get('idle') ?? 0;
  totals.delete('idle');
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${file}: ${(busy / 1e6).toFixed(1)} s busy (${(idle / 1e6).toFixed(1)} s idle)`);
  for (const [name, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}`);
  }
  if (process.env.PROFILE_DETAIL) {
    for (const [name, us] of [...topFunctions(profile, process.env.PROFILE_DETAIL)].slice(0, 25)) {
      console.log(`      ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}`);
    }
  }
}
