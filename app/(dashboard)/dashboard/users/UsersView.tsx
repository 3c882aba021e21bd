'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { columnsOf, DataTable } from '@/app/_kit/DataTable';
import { controlClass, Field } from '@/app/_kit/Field';
import { formatCountOf, formatDateTime } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { FormStatus, Notice } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import { ROLES, type Role } from '@/server/auth/roles';
import { type FieldErrors, plainFieldErrors } from '@/server/schemas/plain-words';
import { ACCOUNT_NOUNS, createUserInput } from '@/server/schemas/users';
import { describeError } from '../../_components/query-error';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import forms from '../forms.module.css';
import styles from './users.module.css';

type User = RouterOutputs['users']['list'][number];
const user = columnsOf<User>();

function RoleOptions() {
  return ROLES.map((role) => (
    <option key={role} value={role}>
      {role}
    </option>
  ));
}

export function UsersView({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const setRole = useMutation(
    trpc.users.setRole.mutationOptions({
      onSuccess: (changed) =>
        setNotice({ ok: true, text: `${changed.email} is now ${changed.role}; their sessions were ended.` }),
      onError: (error) => setNotice({ ok: false, text: describeError(error).message }),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() }),
    }),
  );

  const account = useAccountActions(setNotice);
  const { mutate, isPending } = setRole;
  const columns = useMemo(
    () =>
      user.columns([
        user.accessor('name', { header: 'Name', meta: { rowHeader: true, wrap: true } }),
        user.accessor('email', { header: 'Email', meta: { wrap: true } }),
        // One column both shows and changes a role; your own is shown only, so an admin cannot demote themselves.
        user.accessor('role', {
          header: 'Role',
          cell: ({ row: { original } }) =>
            original.id === currentUserId ? (
              <span className={styles.own}>
                <StatusBadge status={original.role} />
                <span className={text.muted}>you</span>
              </span>
            ) : (
              <select
                className={controlClass({ fit: true })}
                aria-label={`Role of ${original.email}`}
                value={original.role}
                disabled={isPending}
                onChange={(event) => mutate({ userId: original.id, role: event.target.value as Role })}
              >
                <RoleOptions />
              </select>
            ),
        }),
        user.accessor('banned', {
          header: 'Status',
          cell: (c) =>
            c.getValue() ? (
              <StatusBadge status="deactivated" label="Deactivated" tone="failed" />
            ) : (
              <StatusBadge status="active" label="Active" tone="success" />
            ),
        }),
        user.accessor('createdAt', { header: 'Joined', cell: (c) => formatDateTime(c.getValue()) }),
        user.display({
          id: 'account',
          header: 'Account',
          meta: { wrap: true },
          cell: ({ row: { original } }) =>
            original.id === currentUserId ? null : <AccountActions user={original} actions={account} />,
        }),
      ]),
    [currentUserId, isPending, mutate, account],
  );

  return (
    <div className={layout.stack}>
      <CreateUser />
      <Panel title="All users" note={users.data ? formatCountOf(users.data.length, 'user') : undefined}>
        <div aria-live="polite">
          {notice ? <FormStatus tone={notice.ok ? 'success' : 'error'}>{notice.text}</FormStatus> : null}
          {account.issued ? (
            <Notice tone="warning" title={`New password for ${account.issued.email}:`}>
              <code className={text.mono}>{account.issued.password}</code>. It is shown only now: hand it over
              privately. Their sessions were ended.
            </Notice>
          ) : null}
        </div>
        <QueryState query={users} loading="Loading users…" boxed={false}>
          {(list) => (
            <DataTable
              caption="Users"
              columns={columns}
              data={list}
              getRowId={(row) => row.id}
              empty={<EmptyState title="No users yet" />}
            />
          )}
        </QueryState>
      </Panel>
    </div>
  );
}

type Notify = (notice: { ok: boolean; text: string } | null) => void;

/** Deactivate, reactivate and password reset, sharing one pending state and one place for their outcome. */
function useAccountActions(notify: Notify) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [issued, setIssued] = useState<{ email: string; password: string } | null>(null);
  const settle = {
    onError: (error: Parameters<typeof describeError>[0]) => notify({ ok: false, text: describeError(error).message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() }),
  };
  const deactivate = useMutation(
    trpc.users.deactivate.mutationOptions({
      ...settle,
      onSuccess: (u) =>
        notify({ ok: true, text: `${u.email} is deactivated: signed out everywhere, sign-in refused.` }),
    }),
  );
  const reactivate = useMutation(
    trpc.users.reactivate.mutationOptions({
      ...settle,
      onSuccess: (u) => notify({ ok: true, text: `${u.email} can sign in again.` }),
    }),
  );
  const resetPassword = useMutation(
    trpc.users.resetPassword.mutationOptions({
      ...settle,
      onSuccess: (u) => {
        notify(null);
        setIssued({ email: u.email, password: u.temporaryPassword });
      },
    }),
  );
  return {
    issued,
    busy: deactivate.isPending || reactivate.isPending || resetPassword.isPending,
    deactivate: deactivate.mutate,
    reactivate: reactivate.mutate,
    resetPassword: resetPassword.mutate,
  };
}

function AccountActions({ user: target, actions }: { user: User; actions: ReturnType<typeof useAccountActions> }) {
  const confirmThen = (question: string, run: () => void) => () => {
    if (window.confirm(question)) run();
  };
  return (
    <div className={styles.actions}>
      {target.banned ? (
        <Button size="small" disabled={actions.busy} onClick={() => actions.reactivate({ userId: target.id })}>
          Reactivate
        </Button>
      ) : (
        <Button
          size="small"
          disabled={actions.busy}
          aria-label={`Deactivate ${target.email}`}
          onClick={confirmThen(`Deactivate ${target.email}? They are signed out at once.`, () =>
            actions.deactivate({ userId: target.id }),
          )}
        >
          Deactivate
        </Button>
      )}
      <Button
        size="small"
        disabled={actions.busy}
        aria-label={`Reset the password of ${target.email}`}
        onClick={confirmThen(`Reset the password of ${target.email}? Their current password stops working.`, () =>
          actions.resetPassword({ userId: target.id }),
        )}
      >
        Reset password
      </Button>
    </div>
  );
}

function CreateUser() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState<FieldErrors>({});
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() }),
    }),
  );
  const refused = create.isError ? describeError(create.error) : null;
  const fieldErrors = { ...refused?.fieldErrors, ...checked };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = Object.fromEntries(new FormData(formElement));
    const parsed = createUserInput.safeParse(form);
    if (!parsed.success) {
      setChecked(plainFieldErrors(parsed.error.issues, ACCOUNT_NOUNS, form));
      create.reset();
      return;
    }
    setChecked({});
    create.mutate(parsed.data, { onSuccess: () => formElement.reset() });
  };

  return (
    <Panel title="Add a user">
      <form onSubmit={submit} noValidate>
        <div className={forms.row}>
          <Field label="Name" error={fieldErrors.name}>
            <input name="name" className={controlClass()} />
          </Field>
          <Field label="Email" error={fieldErrors.email} grow>
            <input name="email" type="email" className={controlClass()} autoComplete="off" />
          </Field>
          <Field label="Initial password" error={fieldErrors.password}>
            <input name="password" type="password" className={controlClass()} autoComplete="new-password" />
          </Field>
          <Field label="Role">
            <select name="role" className={controlClass()} defaultValue="support">
              <RoleOptions />
            </select>
          </Field>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add user'}
          </Button>
        </div>
        <div aria-live="polite">
          {refused && Object.keys(refused.fieldErrors).length === 0 ? (
            <FormStatus tone="error" role="alert">
              {refused.message}
            </FormStatus>
          ) : create.isSuccess ? (
            <FormStatus tone="success">
              Added {create.data.email} as {create.data.role}. Share the initial password with them privately.
            </FormStatus>
          ) : null}
        </div>
      </form>
    </Panel>
  );
}
