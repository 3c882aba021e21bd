/**
 * Preloaded into every product process of the soak (`--import`): appends the process's memory and
 * CPU time so far to SOAK_MEMORY_FILE every SOAK_MEMORY_SAMPLE_MS, one JSON line each. Nothing of the product reads it.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.SOAK_MEMORY_FILE;
const everyMs = Number(process.env.SOAK_MEMORY_SAMPLE_MS ?? 5000);
if (file) {
  const sample = () => {
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const { user, system } = process.cpuUsage();
    appendFileSync(
      file,
      `${JSON.stringify({ at: Date.now(), pid: process.pid, rss, heapUsed, heapTotal, external, cpuMicros: user + system })}\n`,
    );
  };
  sample();
  setInterval(sample, everyMs).unref();
}
