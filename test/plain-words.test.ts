import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authErrorWords } from '../app/(dashboard)/(auth)/auth-errors';
import { plainFieldErrors } from '../server/schemas/plain-words';
import { ACCOUNT_NOUNS, createUserInput, signInInput, signUpInput } from '../server/schemas/users';
import { handleTrpcRequest } from '../server/trpc/handler';
import { startTestApp, type TestApp } from './support/app';
import { signedInUser } from './support/dashboard';

const wordsFor = (schema: z.ZodType, values: Record<string, unknown>) => {
  const parsed = schema.safeParse(values);
  if (parsed.success) throw new Error('expected the values to be refused');
  return plainFieldErrors(parsed.error.issues, ACCOUNT_NOUNS, values);
};

describe('validation issues in plain words', () => {
  it('words the account forms for people: blank, malformed, too short, too long, unknown choice', () => {
    expect(wordsFor(signUpInput, { name: '', email: '', password: '' })).toEqual({
      name: 'Enter a name',
      email: 'Enter an email address',
      password: 'Enter a password',
    });
    expect(wordsFor(signUpInput, { name: 'Ada', email: 'ada@', password: 'short' })).toEqual({
      email: 'Enter a valid email address',
      password: 'Use at least 12 characters',
    });
    expect(
      wordsFor(createUserInput, { name: 'x'.repeat(101), email: 'a@b.co', password: 'p'.repeat(129), role: 'root' }),
    ).toEqual({ name: 'Use at most 100 characters', password: 'Use at most 128 characters', role: 'Choose a role' });
    expect(wordsFor(signInInput, { email: 'ada@example.com', password: '' })).toEqual({ password: 'Enter a password' });
  });

  it('keeps the first issue of a field, and names a field it has no noun for plainly', () => {
    const schema = z.object({
      code: z
        .string()
        .min(3)
        .regex(/^[A-Z]+$/),
      when: z.coerce.date(),
    });
    const parsed = schema.safeParse({ code: 'a', when: 'soon' });
    expect(parsed.success).toBe(false);
    expect(plainFieldErrors(parsed.error?.issues ?? [], { when: 'a date' })).toEqual({
      code: 'Use at least 3 characters',
      when: 'Enter a date as YYYY-MM-DD',
    });
  });
});

describe("Better Auth's refusals in the form's words", () => {
  it('puts field refusals next to their field, never its "[body.email]" text', () => {
    expect(
      authErrorWords({
        status: 400,
        code: 'VALIDATION_ERROR',
        message:
          '[body.email] Invalid email address; [body.password] Too small: expected string to have >=1 characters',
      }),
    ).toEqual({ fields: { email: 'Enter a valid email address', password: 'Check the password' }, form: null });
    expect(
      authErrorWords({
        status: 422,
        code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
        message: 'User already exists. Use another email.',
      }),
    ).toEqual({
      fields: { email: 'An account with this email already exists. Sign in instead.' },
      form: null,
    });
    expect(authErrorWords({ status: 400, code: 'PASSWORD_TOO_SHORT' }).fields).toEqual({
      password: 'Use at least 12 characters',
    });
  });

  it('words whole-form refusals, and keeps our own sign-up-closed message', () => {
    expect(
      authErrorWords({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }).form,
    ).toBe('Wrong email or password.');
    expect(authErrorWords({ status: 429 }).form).toBe('Too many attempts. Wait a few seconds and try again.');
    expect(authErrorWords({ status: 403, code: 'FORBIDDEN', message: 'Affiliate sign-up is closed' }).form).toBe(
      'Affiliate sign-up is closed',
    );
    expect(authErrorWords({ status: 500, code: 'FAILED_TO_CREATE_USER', message: 'Failed to create user' }).form).toBe(
      'That did not work. Check the details and try again.',
    );
  });
});

describe('the dashboard tRPC endpoint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  it("answers a refused input with each field's issue in words, not zod's issues as JSON", async () => {
    const admin = await signedInUser(t.app, 'admin');
    const base = 'http://127.0.0.1:3000';
    const res = await handleTrpcRequest(
      new Request(`${base}/api/trpc/users.create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base, cookie: admin.headers.get('cookie') ?? '' },
        body: JSON.stringify({ json: { email: 'not-an-email', name: '', password: 'short', role: 'support' } }),
      }),
      t.app,
    );
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { json: { message: string; data: Record<string, unknown> } } };
    expect(error.json.data.fieldErrors).toEqual({
      email: 'Enter a valid email address',
      name: 'Enter the name',
      password: 'Use at least 12 characters',
    });
    expect(error.json.message).toBe(
      'Some values were not accepted. Enter a valid email address. Enter the name. Use at least 12 characters.',
    );
  });
});
