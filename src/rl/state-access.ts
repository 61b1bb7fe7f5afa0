/**
 * Where a group method keeps what it carries between calls (the CLIPO head, frozen RFN
 * statistics, Tri-Factor's EMA): named JSON documents. A `Store` satisfies it as it is.
 */
export interface StateAccess {
  /** The document, or undefined when it was never written. */
  getState(key: string): Promise<unknown | undefined>;
  /** Writes (replaces) the document. */
  putState(key: string, value: unknown): Promise<void>;
}
