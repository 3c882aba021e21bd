// Fails when a client component ('use client') reaches, through runtime imports, a module marked
// `import 'server-only'`. Next.js refuses the same at build time; this says so in seconds, in lint.
// Usage: node scripts/check-client-imports.mjs [project root]   (defaults to this checkout)
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import madge from 'madge';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
process.chdir(root);
const skipTypeImports = { skipTypeImports: true };
const result = await madge(join(root, 'app'), {
  baseDir: root,
  fileExtensions: ['ts', 'tsx'],
  tsConfig: join(root, 'tsconfig.json'),
  detectiveOptions: { ts: skipTypeImports, tsx: skipTypeImports, es6: skipTypeImports },
});
const graph = result.obj();
const source = (file) => readFileSync(join(root, file), 'utf8');
const isClient = (file) => /^\s*['"]use client['"]/.test(source(file));
const isServerOnly = (file) => /^import ['"]server-only['"];?$/m.test(source(file));

const problems = [];
for (const entry of Object.keys(graph).filter(isClient)) {
  const cameFrom = new Map([[entry, null]]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift();
    if (isServerOnly(file)) {
      const chain = [];
      for (let at = file; at !== null; at = cameFrom.get(at)) chain.unshift(at);
      problems.push(chain.join(' > '));
      break;
    }
    for (const next of graph[file] ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
}
if (problems.length) {
  console.error(`Client components reach server-only modules:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`No client component reaches a server-only module (${Object.keys(graph).length} modules read).`);
