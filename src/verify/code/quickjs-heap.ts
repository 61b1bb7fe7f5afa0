import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
  RELEASE_SYNC,
} from 'quickjs-emscripten';

/** The part of `WebAssembly.Memory` used here (the project's `lib` has no WebAssembly types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}
const { Memory } = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
  }
).WebAssembly;

const PAGE = 64 * 1024;
/**
 * A heap grown past this is never freed object by object (a full heap of small objects takes
 * seconds to free): its worker is terminated instead, which returns the memory at once.
 */
export const QUICKJS_RETIRE_HEAP_BYTES = 64 * 1024 * 1024;
/** The interpreter's own initial memory (its static data, stack and first heap): the smallest heap. */
export const QUICKJS_MIN_HEAP_BYTES = 16 * 1024 * 1024;

/**
 * A QuickJS module on a WebAssembly memory that cannot grow past `maxBytes`. QuickJS's own memory
 * limit does not hold in this build: without `malloc_usable_size` it counts 8 bytes per
 * allocation whatever its size, so a program of large arrays reached 2 GB under a 512 MB limit.
 * The memory's maximum is a bound the engine cannot pass: past it `malloc` fails and QuickJS
 * throws "out of memory" (or, with no room left to build that error, `null`).
 */
export interface QuickJsHeap {
  readonly module: QuickJSWASMModule;
  /** The largest the heap may grow, in bytes. */
  readonly maxBytes: number;
  /** Bytes the heap holds now (a WebAssembly memory never shrinks). */
  bytes(): number;
  /** Whether the last attempt to grow the heap failed: an allocation hit the limit. */
  exhausted(): boolean;
  /** Forgets an earlier failed growth (before the next test). */
  clearExhausted(): void;
}

export async function newQuickJsHeap(limitBytes: number): Promise<QuickJsHeap> {
  const maxPages = Math.floor(Math.max(QUICKJS_MIN_HEAP_BYTES, limitBytes) / PAGE);
  const memory = new Memory({
    initial: QUICKJS_MIN_HEAP_BYTES / PAGE,
    maximum: maxPages,
  });
  // Emscripten grows the heap through this object and tries up to three sizes before `malloc`
  // gives up, so the outcome of the last try is the one that says whether an allocation failed.
  let lastGrowFailed = false;
  const grow = memory.grow.bind(memory);
  memory.grow = (delta: number) => {
    try {
      const previous = grow(delta);
      lastGrowFailed = false;
      return previous;
    } catch (error) {
      lastGrowFailed = true;
      throw error;
    }
  };
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  return {
    module,
    maxBytes: maxPages * PAGE,
    bytes: () => memory.buffer.byteLength,
    exhausted: () => lastGrowFailed,
    clearExhausted: () => {
      lastGrowFailed = false;
    },
  };
}
