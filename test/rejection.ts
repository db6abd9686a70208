/*
 * What a promise was rejected with, for tests that read the error's fields rather than only match its message.
 */

/** The reason the promise was rejected with; a promise that resolves fails the test. */
export async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** The error the promise was rejected with, an instance of `type`: any other error is thrown again. */
export async function rejection<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await thrown(promise);
  if (error instanceof type) return error;
  throw error;
}
