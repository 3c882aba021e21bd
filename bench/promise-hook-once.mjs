/**
 * Does a promise hook, set once and removed, slow a process' promises for good? A promise-heavy loop of async
 * calls, timed after a warm-up: `never` sets no hook; `als` enters an AsyncLocalStorage once and disables it;
 * `nodehook` enables and disables an async_hooks init hook; `v8hook` sets and stops v8.promiseHooks.onInit.
 * Prints the fastest of 16 rounds (ms of CPU). Compare fresh processes:
 *   for i in 1 2 3; do for m in never als nodehook v8hook; do node bench/promise-hook-once.mjs $m; done; done
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { promiseHooks } from 'node:v8';

const mode = process.argv[2] ?? 'never';
async function leaf(x) {
  return x + 1;
}
async function mid(x) {
  const a = await leaf(x);
  const b = await Promise.resolve(a);
  return new Promise((resolve) => resolve(b)).then((v) => v * 1);
}
async function work(n) {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += await mid(i & 1023);
  return sum;
}
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

await work(200_000);
if (mode === 'als') {
  const storage = new AsyncLocalStorage();
  await storage.run(1, () => work(1_000));
  storage.disable();
} else if (mode === 'nodehook') {
  const hook = createHook({ init() {} }).enable();
  await work(10);
  hook.disable();
} else if (mode === 'v8hook') {
  const stop = promiseHooks.onInit(() => {});
  await work(10);
  stop();
} else if (mode !== 'never') throw new Error(`unknown mode ${mode}`);
const rounds = [];
for (let round = 0; round < 16; round++) {
  const start = cpuMs();
  await work(300_000);
  rounds.push(cpuMs() - start);
}
console.log(mode, Math.min(...rounds).toFixed(0));
