import { expect } from 'vitest';

export function expectV1Headers(headers: Headers) {
  expect(headers.get('x-api-version')).toBe('1');
  expect(headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]{22}$/);
  expect(headers.get('content-type')).toMatch(/^application\/json/);
}

/** The v1 error envelope, with every documented field and the request id matching the header. */
export function expectV1Error(
  res: { status: number; headers: Headers; body: any },
  status: number,
  code: string,
  field?: string,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectV1Headers(res.headers);
  const error = res.body?.error;
  expect(error).toBeTruthy();
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(typeof error.field).toBe('string');
  expect(error.requestId).toBe(res.headers.get('x-request-id'));
  expect(Array.isArray(error.details?.errors)).toBe(true);
  expect(error.details.errors.length).toBeGreaterThan(0);
  for (const e of error.details.errors) {
    expect(typeof e.code).toBe('string');
    expect(typeof e.field).toBe('string');
    expect(typeof e.message).toBe('string');
  }
  if (field !== undefined) {
    expect(error.field).toBe(field);
    expect(error.details.errors.map((e: any) => e.field)).toContain(field);
  }
  expectNoLeak(res.body);
}

/** No stack trace, SQL or connection detail in anything a client reads. */
export function expectNoLeak(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+|node_modules|ECONNREFUSED|select |insert |postgres:\/\/|redis:\/\//i);
}

export function expectLegacyError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  expectNoLeak(res.body);
}

/** The first row of a query, failing the test when there is none. */
export async function firstRow<T>(rows: Promise<readonly T[]> | readonly T[]): Promise<T> {
  const [row] = await rows;
  if (row === undefined) throw new Error('expected a row, got none');
  return row;
}
