'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Button } from '@/app/_kit/Button';
import { columnsOf, DataTable } from '@/app/_kit/DataTable';
import { controlClass, Field } from '@/app/_kit/Field';
import { formatCountOf, formatDateTime } from '@/app/_kit/format';
import layout from '@/app/_kit/layout.module.css';
import { FormStatus } from '@/app/_kit/Notice';
import { Panel } from '@/app/_kit/Panel';
import { StatusBadge } from '@/app/_kit/StatusBadge';
import { EmptyState } from '@/app/_kit/states';
import text from '@/app/_kit/text.module.css';
import { ROLES, type Role } from '@/server/auth/roles';
import { createUserInput } from '@/server/dashboard/schemas';
import { describeError } from '../../_components/query-error';
import { QueryState } from '../../_components/states';
import { type RouterOutputs, useTRPC } from '../../_trpc/client';
import forms from '../forms.module.css';

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

  const { mutate, isPending } = setRole;
  const columns = useMemo(
    () =>
      user.columns([
        user.accessor('name', { header: 'Name', meta: { rowHeader: true } }),
        user.accessor('email', { header: 'Email' }),
        user.accessor('role', { header: 'Role', cell: (c) => <StatusBadge status={c.getValue()} /> }),
        user.accessor('createdAt', { header: 'Joined', cell: (c) => formatDateTime(c.getValue()) }),
        user.display({
          id: 'changeRole',
          header: 'Change role',
          cell: ({ row: { original } }) =>
            original.id === currentUserId ? (
              <span className={text.muted}>you</span>
            ) : (
              <select
                className={controlClass()}
                aria-label={`Role of ${original.email}`}
                value={original.role}
                disabled={isPending}
                onChange={(event) => mutate({ userId: original.id, role: event.target.value as Role })}
              >
                <RoleOptions />
              </select>
            ),
        }),
      ]),
    [currentUserId, isPending, mutate],
  );

  return (
    <div className={layout.stack}>
      <CreateUser />
      <Panel title="All users" note={users.data ? formatCountOf(users.data.length, 'user') : undefined}>
        <div aria-live="polite">
          {notice ? <FormStatus tone={notice.ok ? 'success' : 'error'}>{notice.text}</FormStatus> : null}
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

function CreateUser() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() }),
    }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = Object.fromEntries(new FormData(formElement));
    const parsed = createUserInput.safeParse(form);
    if (!parsed.success) {
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setFieldErrors({});
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
          {create.isError ? (
            <FormStatus tone="error" role="alert">
              {describeError(create.error).message}
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
