import { parseArgs } from 'node:util';
import { ensureAdmin } from '../server/auth/users';
import { createAppContext } from '../server/context';
import { loadConfigOrExit } from '../server/lifecycle';
import { createUserInput } from '../server/schemas/users';

/** npx tsx scripts/create-admin.ts --email x --password y --name z — creates an admin; never promotes an existing account. */
const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
});
const parsed = createUserInput.safeParse({ ...values, name: values.name ?? values.email, role: 'admin' });
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
  console.error('usage: npx tsx scripts/create-admin.ts --email x --password y --name z');
  process.exit(2);
}

const app = createAppContext(loadConfigOrExit('create-admin'));
try {
  const { id, outcome } = await ensureAdmin(app, parsed.data);
  console.log(
    outcome === 'created'
      ? `created admin ${parsed.data.email} (${id})`
      : `${parsed.data.email} is already an admin (${id}); nothing changed, the password included`,
  );
} catch (error) {
  console.error(`could not create the admin: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await app.close();
}
