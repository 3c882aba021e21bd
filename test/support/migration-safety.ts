import type { Migration } from '../../drizzle/migrate';

/** Tables that grow with traffic: a statement that locks one for a scan or a rewrite stops a deploy's requests. */
export const LARGE_TABLES = new Set([
  'transactions',
  'transaction_events',
  'locks',
  'provider_calls',
  'rate_limit_hits',
  'idempotency_keys',
  'queue_depth_samples',
  'swap_rollup_deltas',
  'route_time_deltas',
  'route_time_daily',
  'swap_counts',
  'referral_swap_counts',
  'wallet_pair_counts',
  'wallet_counts',
  'swap_hourly',
  'affiliate_hourly',
  'affiliate_daily',
  'lock_activity_hourly',
  'lock_activity_daily',
  'provider_call_hourly',
  'provider_call_daily',
  'webhook_messages',
  'webhook_deliveries',
  'auth_session',
  'audit_events',
]);

/** Tables that stay small (catalog, settings, accounts): a short full lock on one is not a deploy's concern. */
export const SMALL_TABLES = new Set([
  'chains',
  'assets',
  'sources',
  'maintenance_runs',
  'rollup_watermarks',
  'referral_codes',
  'webhook_endpoints',
  'auth_user',
  'auth_account',
  'auth_verification',
]);

export type BlockingForm =
  | 'index without CONCURRENTLY'
  | 'CONCURRENTLY inside a transaction'
  | 'column added with a volatile or generated default'
  | 'column type change'
  | 'constraint checked under lock'
  | 'backfill inside the migration'
  | 'explicit table lock';

export interface Finding {
  form: BlockingForm;
  table: string;
  statement: string;
}

const NAME = String.raw`(?:"?\w+"?\.)?"?(\w+)"?`;
/** Defaults that do not rewrite the table on ADD COLUMN (constants and stable functions such as now()). */
const CHEAP_DEFAULT = /^(?:'[^']*'(?:::[\w ]+)?|-?[\d.]+|true|false|null|now\(\)|current_timestamp|current_date)$/i;

const code = (statement: string) =>
  statement
    .replace(/\$\$[\s\S]*?\$\$/g, '$$$$')
    .replace(/--[^\n]*/g, '')
    .trim()
    .replace(/;$/, '');

function columnForms(clause: string): BlockingForm[] {
  const forms: BlockingForm[] = [];
  const added = /^add\s+column\s+(?:if\s+not\s+exists\s+)?"?\w+"?\s+(.*)$/is.exec(clause);
  if (added) {
    const spec = added[1] as string;
    const fallback = /\bdefault\s+(.+?)(?:\s+not\s+null|\s+null|\s+constraint|\s+references|\s+check|$)/is.exec(
      spec,
    )?.[1];
    if (
      /\bgenerated\b/i.test(spec) ||
      /^(?:small|big)?serial\b/i.test(spec) ||
      (fallback && !CHEAP_DEFAULT.test(fallback.trim()))
    )
      forms.push('column added with a volatile or generated default');
    if (/\b(?:references|check)\b/i.test(spec)) forms.push('constraint checked under lock');
  }
  if (/^alter\s+(?:column\s+)?"?\w+"?\s+(?:set\s+data\s+)?type\b/i.test(clause)) forms.push('column type change');
  if (/^alter\s+(?:column\s+)?"?\w+"?\s+set\s+not\s+null/i.test(clause)) forms.push('constraint checked under lock');
  if (/^add\s+constraint\b/i.test(clause) && !/\bnot\s+valid\b/i.test(clause) && !/\busing\s+index\b/i.test(clause))
    forms.push('constraint checked under lock');
  return forms;
}

/** What in `migration` would hold a large table's lock for longer than an instant, table by table. */
export function blockingForms(migration: Pick<Migration, 'statements' | 'noTransaction'>): Finding[] {
  const findings: Finding[] = [];
  const created = new Set<string>();
  for (const raw of migration.statements) {
    const statement = code(raw);
    const add = (form: BlockingForm, table: string) => findings.push({ form, table, statement: raw.trim() });
    const large = (table: string) => LARGE_TABLES.has(table) && !created.has(table);

    const table = new RegExp(`^create\\s+table\\s+(?:if\\s+not\\s+exists\\s+)?${NAME}`, 'i').exec(statement)?.[1];
    if (table) created.add(table);

    const index = new RegExp(
      `^create\\s+(?:unique\\s+)?index\\s+(concurrently\\s+)?(?:if\\s+not\\s+exists\\s+)?(?:"?\\w+"?\\s+)?on\\s+(?:only\\s+)?${NAME}`,
      'i',
    ).exec(statement);
    if (index) {
      const [, concurrently, on] = index as unknown as [string, string | undefined, string];
      if (concurrently && !migration.noTransaction) add('CONCURRENTLY inside a transaction', on);
      if (!concurrently && large(on)) add('index without CONCURRENTLY', on);
    }

    const altered = new RegExp(`^alter\\s+table\\s+(?:if\\s+exists\\s+)?(?:only\\s+)?${NAME}\\s+(.*)$`, 'is').exec(
      statement,
    );
    if (altered && large(altered[1] as string)) {
      for (const clause of (altered[2] as string).split(/,(?![^(]*\))/))
        for (const form of columnForms(clause.trim())) add(form, altered[1] as string);
    }

    const written = new RegExp(
      `^(?:with\\b[\\s\\S]*?\\)\\s*)?(?:update|delete\\s+from)\\s+(?:only\\s+)?${NAME}`,
      'i',
    ).exec(statement)?.[1];
    if (written && large(written)) add('backfill inside the migration', written);

    const locked = new RegExp(`^lock\\s+(?:table\\s+)?(?:only\\s+)?${NAME}`, 'i').exec(statement)?.[1];
    if (locked && large(locked)) add('explicit table lock', locked);
  }
  return findings;
}
