'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ROLES, type Role } from '@/server/auth/roles';
import { createUserInput } from '@/server/dashboard/schemas';
import styles from '../../_components/dash.module.css';
import { formatDateTime } from '../../_components/format';
import { Panel } from '../../_components/layout-parts';
import { describeError } from '../../_components/query-error';
import { StatusBadge } from '../../_components/StatusBadge';
import { EmptyState, ErrorState, LoadingState } from '../../_components/states';
import { useTRPC } from '../../_trpc/client';

export function UsersView({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const setRole = useMutation(
    trpc.users.setRole.mutationOptions({
      onSuccess: (user) =>
        setNotice({ ok: true, text: `${user.email} is now ${user.role}; their sessions were ended.` }),
      onError: (error) => setNotice({ ok: false, text: describeError(error).message }),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() }),
    }),
  );

  return (
    <div className={styles.stack}>
      <CreateUser />
      <Panel title="All users" note={users.data ? `${users.data.length} users` : undefined}>
        <div aria-live="polite">
          {notice ? (
            <p className={notice.ok ? styles.formSuccess : styles.formError} style={{ marginTop: 0 }}>
              {notice.text}
            </p>
          ) : null}
        </div>
        {users.isPending ? (
          <LoadingState label="Loading users…" />
        ) : users.isError ? (
          <ErrorState message={describeError(users.error).message} onRetry={() => users.refetch()} />
        ) : users.data.length === 0 ? (
          <EmptyState title="No users yet" />
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">Change role</th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((user) => (
                  <tr key={user.id}>
                    <th scope="row">{user.name}</th>
                    <td>{user.email}</td>
                    <td>
                      <StatusBadge status={user.role} />
                    </td>
                    <td>{formatDateTime(user.createdAt)}</td>
                    <td>
                      {user.id === currentUserId ? (
                        <span className={styles.muted}>you</span>
                      ) : (
                        <select
                          className={styles.select}
                          aria-label={`Role of ${user.email}`}
                          value={user.role}
                          disabled={setRole.isPending}
                          onChange={(event) => setRole.mutate({ userId: user.id, role: event.target.value as Role })}
                        >
                          {ROLES.map((role) => (
                            <option key={role} value={role}>
                              {role}
                            </option>
                          ))}
                        </select>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  );
}

function CreateUser() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { name: useId(), email: useId(), password: useId(), role: useId(), status: useId() };
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

  const fieldError = (name: string) =>
    fieldErrors[name] ? (
      <span className={styles.formError} style={{ margin: 0 }} id={`${ids.status}-${name}`}>
        {fieldErrors[name]}
      </span>
    ) : null;
  const describedBy = (name: string) => (fieldErrors[name] ? `${ids.status}-${name}` : undefined);

  return (
    <Panel title="Add a user">
      <form onSubmit={submit} noValidate>
        <div className={styles.formRow}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={ids.name}>
              Name
            </label>
            <input id={ids.name} name="name" className={styles.input} aria-describedby={describedBy('name')} />
            {fieldError('name')}
          </div>
          <div className={`${styles.field} ${styles.fieldGrow}`}>
            <label className={styles.label} htmlFor={ids.email}>
              Email
            </label>
            <input
              id={ids.email}
              name="email"
              type="email"
              className={styles.input}
              autoComplete="off"
              aria-describedby={describedBy('email')}
            />
            {fieldError('email')}
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={ids.password}>
              Initial password
            </label>
            <input
              id={ids.password}
              name="password"
              type="password"
              className={styles.input}
              autoComplete="new-password"
              aria-describedby={describedBy('password')}
            />
            {fieldError('password')}
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={ids.role}>
              Role
            </label>
            <select id={ids.role} name="role" className={styles.select} defaultValue="support">
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={`${styles.button} ${styles.buttonPrimary}`} disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add user'}
          </button>
        </div>
        <div aria-live="polite">
          {create.isError ? (
            <p className={styles.formError} role="alert">
              {describeError(create.error).message}
            </p>
          ) : create.isSuccess ? (
            <p className={styles.formSuccess}>
              Added {create.data.email} as {create.data.role}. Share the initial password with them privately.
            </p>
          ) : null}
        </div>
      </form>
    </Panel>
  );
}
