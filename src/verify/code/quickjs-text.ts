import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';

/** A VM value as text, and the length the whole text has. */
export interface VmText {
  /** At most the asked number of characters. */
  readonly text: string;
  /** The length of the whole text, which may be longer than `text`. */
  readonly length: number;
}

/**
 * Reads VM values out as text without copying more than asked. The VM's heap is bounded, the
 * host's is not: `console.log` of a 300 MB string, or a thrown one, once became host strings of
 * that size (and more, as JSON round trips) before any output limit was checked. Strings are
 * measured and cut inside the VM; objects are stringified there first.
 */
export interface QuickJsTextReader {
  read(handle: QuickJSHandle, maxChars: number): VmText;
  dispose(): void;
}

/**
 * Takes `JSON.stringify` and `String.prototype.slice` before the program runs, so a program that
 * replaces them changes only how its own values print.
 */
export function createQuickJsTextReader(vm: QuickJSContext): QuickJsTextReader {
  const json = vm.getProp(vm.global, 'JSON');
  const stringify = vm.getProp(json, 'stringify');
  json.dispose();
  const stringClass = vm.getProp(vm.global, 'String');
  const prototype = vm.getProp(stringClass, 'prototype');
  const slice = vm.getProp(prototype, 'slice');
  stringClass.dispose();
  prototype.dispose();

  const readString = (handle: QuickJSHandle, maxChars: number): VmText => {
    const lengthHandle = vm.getProp(handle, 'length');
    const length = vm.getNumber(lengthHandle);
    lengthHandle.dispose();
    if (length <= maxChars) return { text: vm.getString(handle), length };
    const start = vm.newNumber(0);
    const end = vm.newNumber(maxChars);
    const cut = vm.callFunction(slice, handle, start, end);
    start.dispose();
    end.dispose();
    if (cut.error) {
      cut.error.dispose();
      return { text: '', length };
    }
    const text = vm.getString(cut.value);
    cut.value.dispose();
    return { text, length };
  };

  const dumped = (handle: QuickJSHandle): VmText => {
    let text: string;
    try {
      const value = vm.dump(handle) as unknown;
      text =
        value === undefined
          ? 'undefined'
          : typeof value === 'object'
            ? String(JSON.stringify(value))
            : String(value);
    } catch {
      text = '[unprintable value]';
    }
    return { text, length: text.length };
  };

  return {
    read(handle, maxChars) {
      const type = vm.typeof(handle);
      if (type === 'string') return readString(handle, maxChars);
      if (type !== 'object') return dumped(handle);
      const json = vm.callFunction(stringify, vm.undefined, handle);
      if (json.error) {
        // A cycle, a BigInt, or the heap full: what the engine's own dump makes of it.
        json.error.dispose();
        return dumped(handle);
      }
      try {
        return vm.typeof(json.value) === 'string' ? readString(json.value, maxChars) : dumped(handle);
      } finally {
        json.value.dispose();
      }
    },
    dispose() {
      stringify.dispose();
      slice.dispose();
    },
  };
}
