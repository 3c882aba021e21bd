/** Staff actions the audit log records, each with the kind of thing it acts on. Pure: the audit page imports it. */
export const AUDIT_ACTIONS = {
  'auth.sign_in': 'user',
  'auth.sign_in_failed': 'user',
  'auth.sign_out': 'user',
  'user.create': 'user',
  'user.role_change': 'user',
  'user.deactivate': 'user',
  'user.reactivate': 'user',
  'user.password_reset': 'user',
  'webhook.create': 'webhook_endpoint',
  'webhook.update': 'webhook_endpoint',
  'webhook.rotate_secret': 'webhook_endpoint',
  'webhook.delete': 'webhook_endpoint',
  'webhook.redeliver': 'webhook_message',
  'referral_code.create': 'referral_code',
  'referral_code.delete': 'referral_code',
  'transaction.poll_now': 'transaction',
  export: 'export',
  'settings.change': 'setting',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditTargetType = (typeof AUDIT_ACTIONS)[AuditAction];

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
export const AUDIT_TARGET_TYPES = [...new Set(Object.values(AUDIT_ACTIONS))] as AuditTargetType[];
