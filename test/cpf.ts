/*
 * CPFs for tests: valid check digits, drawn at random so each test's person is its own.
 */

/** The eleven digits of a CPF whose first nine are `nine`: the two check digits appended. */
export function withCheckDigits(nine: readonly number[]): string {
  const digits = [...nine];
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    digits.push(((sum * 10) % 11) % 10);
  }
  return digits.join("");
}

/** A random CPF with valid check digits (never nine repeated digits, which no CPF has). */
export function randomCpf(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (new Set(digits).size === 1) digits[0] = (digits[0]! + 1) % 10;
  return withCheckDigits(digits);
}
