/**
 * Small type guards for stored judgment detail: a view reads a detail only after its guard passed,
 * so an old, partial or foreign detail is recognised as such (and shown as a tree) instead of
 * crashing the page. Extra keys are allowed; every key a view reads is checked.
 */
export type Guard<T> = (value: unknown) => value is T;
export type Guarded<G> = G extends Guard<infer T> ? T : never;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const isString: Guard<string> = (value): value is string => typeof value === 'string';
export const isNumber: Guard<number> = (value): value is number => typeof value === 'number';
export const isBoolean: Guard<boolean> = (value): value is boolean => typeof value === 'boolean';
export const isUnknown: Guard<unknown> = (_value): _value is unknown => true;

/** One of the given strings. */
export const oneOf =
  <const T extends readonly (string | number)[]>(...values: T): Guard<T[number]> =>
  (value): value is T[number] =>
    values.includes(value as T[number]);

export const optional =
  <T>(guard: Guard<T>): Guard<T | undefined> =>
  (value): value is T | undefined =>
    value === undefined || guard(value);

export const nullable =
  <T>(guard: Guard<T>): Guard<T | null> =>
  (value): value is T | null =>
    value === null || guard(value);

export const arrayOf =
  <T>(guard: Guard<T>): Guard<T[]> =>
  (value): value is T[] =>
    Array.isArray(value) && value.every(guard);

/** An object with (at least) these keys, each passing its guard; `optional(…)` for a key that may be absent. */
export const objectOf =
  <S extends Record<string, Guard<unknown>>>(shape: S): Guard<{ [K in keyof S]: Guarded<S[K]> }> =>
  (value): value is { [K in keyof S]: Guarded<S[K]> } =>
    isRecord(value) && Object.entries(shape).every(([key, guard]) => guard(value[key]));

export const anyOf =
  <A, B>(a: Guard<A>, b: Guard<B>): Guard<A | B> =>
  (value): value is A | B =>
    a(value) || b(value);
