/**
 * An async load made on the first call and shared by every later one. The sources import their
 * judge implementations this way, so parsing a spec (and importing the root entry) loads only
 * the params schemas, and a process that scores math never loads a judge.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
