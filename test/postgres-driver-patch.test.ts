import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// postgres.js 3.4.9 defers small writes with setImmediate; when Postgres restarts and the socket
// closes first, the deferred write dereferences the nulled socket from a timer and the uncaught
// TypeError kills the process (found by the soak's Postgres restarts; upstream porsager/postgres#1154).
// patches/postgres+3.4.9.patch (applied by `patch-package` on install) makes that write a no-op.
// The package's CommonJS entry is cjs/src/index.js; the driver's root is two levels up.
const root = dirname(dirname(dirname(createRequire(import.meta.url).resolve('postgres'))));

describe('the installed postgres.js driver', () => {
  for (const build of ['src', 'cjs/src']) {
    it(`${build}: a deferred write after the socket closed is dropped, not thrown`, () => {
      const source = readFileSync(join(root, build, 'connection.js'), 'utf8');
      const nextWrite = source.slice(source.indexOf('function nextWrite(fn) {'));
      expect(nextWrite.indexOf('if (!socket)')).toBeGreaterThan(0);
      expect(nextWrite.indexOf('if (!socket)')).toBeLessThan(nextWrite.indexOf('socket.write('));
    });

    // Behind PgBouncer a client logs in while the server is down, and the array-type query that follows fails.
    it(`${build}: a failed array-type fetch is handled (and retried at the next connect)`, () => {
      const source = readFileSync(join(root, build, 'connection.js'), 'utf8');
      expect(source).toContain('return fetchArrayTypes().catch(() => needsTypes = true)');
    });

    // With max_pipeline 0 (DATABASE_POOLER=transaction: nothing pipelined through PgBouncer) a transaction's
    // `begin` must still learn its connection: the driver called `onexecute` only while the pipeline had room.
    it(`${build}: a query's onexecute runs before the pipeline check`, () => {
      const source = readFileSync(join(root, build, 'connection.js'), 'utf8');
      const execute = source.slice(source.indexOf('return write(toBuffer(q))'));
      expect(execute.indexOf('q.options.onexecute(connection)')).toBeGreaterThan(0);
      expect(execute.indexOf('q.options.onexecute(connection)')).toBeLessThan(
        execute.indexOf('sent.length < max_pipeline'),
      );
    });
  }
});
