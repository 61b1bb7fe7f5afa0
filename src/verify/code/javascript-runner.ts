import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import { shouldInterruptAfterDeadline } from 'quickjs-emscripten';
import {
  type CodeLimits,
  type CodeTest,
  type CodeTestResult,
  DEFAULT_LIMITS,
  sameOutput,
} from './code-test.js';
import { JAVASCRIPT_SEAL } from './javascript-test-guards.js';
import { newQuickJsHeap, QUICKJS_RETIRE_HEAP_BYTES, type QuickJsHeap } from './quickjs-heap.js';
import { createQuickJsTextReader, type QuickJsTextReader } from './quickjs-text.js';
import { tightenEquality } from './tighten-equality.js';

/**
 * Runs each test of a JavaScript program in a fresh QuickJS runtime (WASM): no host bindings
 * except `console.log`/`print` (captured, capped), `input` (the test's stdin as a string) and
 * `readline()` (its next line). The heap is a WebAssembly memory that cannot grow past the memory
 * limit, the stack is capped, and an interrupt handler enforces the time limit, so loops and
 * allocation bombs end as results, not as a hung or swollen host.
 */
let cached: { readonly limitBytes: number; readonly heap: Promise<QuickJsHeap> } | undefined;

// One heap per memory limit, reused across tests (each gets a fresh runtime in it). Some programs
// (a stack overflow, for one) leave QuickJS's heap in a state where freeing the runtime aborts
// the WASM instance: the heap is then discarded and a fresh one made, so one hostile program
// cannot break the runs that follow it.
function quickjsHeap(limitBytes: number): Promise<QuickJsHeap> {
  if (cached?.limitBytes === limitBytes) return cached.heap;
  const heap = newQuickJsHeap(limitBytes);
  // A heap that could not be made is not kept: the next job tries again.
  heap.catch(() => {
    if (cached?.heap === heap) cached = undefined;
  });
  cached = { limitBytes, heap };
  return heap;
}

const discardHeap = () => {
  cached = undefined;
};

/** What the runner reports as it goes, so a supervisor can time each test and keep its result. */
export interface JavaScriptTestHooks {
  /** The run's first test starts now; each later one starts as the one before it is reported. */
  readonly started?: (index: number) => void;
  /** Test `result.index` is decided; `heapBytes` is what the heap holds (it never shrinks). */
  readonly finished?: (result: CodeTestResult, heapBytes: number) => void;
}

/**
 * Runs `tests`, numbering them from `firstIndex` (a run resumed after a stopped worker). Stops
 * after a test that grew the heap past {@link QUICKJS_RETIRE_HEAP_BYTES}, leaving that heap
 * unfreed: the worker is to be terminated, and the remaining tests resumed in a fresh one.
 */
export async function runJavaScriptTests(
  code: string,
  tests: readonly CodeTest[],
  limits: CodeLimits,
  strict: boolean,
  hooks: JavaScriptTestHooks = {},
  firstIndex = 0,
): Promise<CodeTestResult[]> {
  const limitBytes = (limits.memoryMb ?? DEFAULT_LIMITS.memoryMb) * 1024 * 1024;
  const results: CodeTestResult[] = [];
  for (const [offset, test] of tests.entries()) {
    const heap = await quickjsHeap(limitBytes);
    if (offset === 0) hooks.started?.(firstIndex);
    const result = runOne(heap, code, test, firstIndex + offset, limits, strict, (decided) =>
      hooks.finished?.(decided, heap.bytes()),
    );
    results.push(result);
    if (heap.bytes() > QUICKJS_RETIRE_HEAP_BYTES) break;
  }
  return results;
}

/** One evaluation: its completion value, or why it threw (as a result minus index and timing). */
type Evaluation =
  | { readonly ok: true; readonly value: QuickJSHandle }
  | { readonly ok: false; readonly outcome: Omit<CodeTestResult, 'index' | 'elapsed_ms'> };

// The longest text a thrown value contributes to a result's reason.
const MESSAGE_CHARS = 4000;

function runOne(
  heap: QuickJsHeap,
  code: string,
  test: CodeTest,
  index: number,
  limits: CodeLimits,
  strict: boolean,
  finished: ((result: CodeTestResult) => void) | undefined,
): CodeTestResult {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_LIMITS.timeoutMs;
  const outputBytes = limits.outputBytes ?? DEFAULT_LIMITS.outputBytes;
  const started = performance.now();
  heap.clearExhausted();
  const runtime = heap.module.newRuntime();
  // QuickJS's own count (8 bytes per allocation in this build) is no bound; the heap's maximum is.
  runtime.setMemoryLimit(heap.maxBytes);
  // Below the host's own stack depth, so QuickJS throws its RangeError before V8 overflows.
  runtime.setMaxStackSize(256 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + timeoutMs));
  const vm = runtime.newContext();
  const reader = createQuickJsTextReader(vm);
  let stdout = '';
  let overflow = false;
  const failedStatus = test.kind === 'assert' ? 'failed' : 'error';
  const finish = (outcome: Omit<CodeTestResult, 'index' | 'elapsed_ms'>): CodeTestResult => ({
    index,
    ...outcome,
    elapsed_ms: performance.now() - started,
  });
  const evaluate = (source: string, filename: string): Evaluation => {
    let result: ReturnType<QuickJSContext['evalCode']>;
    try {
      result = vm.evalCode(source, filename);
    } catch (error) {
      // The interpreter itself failed (e.g. the host stack overflowed): discard this heap.
      discardHeap();
      const reason = `the interpreter failed: ${(error as Error).message}`;
      return { ok: false, outcome: { status: failedStatus, stdout, reason } };
    }
    if (!result.error) return { ok: true, value: result.value };
    const message = thrownMessage(vm, reader, result.error);
    result.error.dispose();
    return { ok: false, outcome: classify(message) };
  };
  const classify = (message: string): Omit<CodeTestResult, 'index' | 'elapsed_ms'> => {
    if (overflow) return { status: 'output_limit', stdout, reason: 'exceeded the output limit' };
    if (/interrupted/i.test(message))
      return { status: 'timeout', stdout, reason: `exceeded ${timeoutMs} ms` };
    // Out of memory with no room left to build the error, QuickJS throws `null`: the heap says.
    if (heap.exhausted() || /out of memory/i.test(message))
      return {
        status: 'memory',
        stdout,
        reason: `exceeded the memory limit of ${heap.maxBytes / 2 ** 20} MB`,
      };
    return { status: failedStatus, stdout, stderr: message, reason: message };
  };
  const judge = (): CodeTestResult => {
    const stdin = test.kind === 'stdio' ? test.stdin : '';
    const stdinLines = stdin.split('\n');
    let nextLine = 0;
    const print = vm.newFunction('log', (...args: QuickJSHandle[]) => {
      // Each value is read only up to the room left, so a huge one never reaches the host whole.
      const room = outputBytes - stdout.length;
      const parts: string[] = [];
      let size = 0;
      for (const arg of args) {
        const part = reader.read(arg, room);
        size += part.length + 1;
        if (stdout.length + size > outputBytes) {
          overflow = true;
          throw new Error('output limit exceeded');
        }
        parts.push(part.text);
      }
      stdout += `${parts.join(' ')}\n`;
    });
    const readline = vm.newFunction('readline', () =>
      nextLine < stdinLines.length && !(nextLine === stdinLines.length - 1 && stdinLines[nextLine] === '')
        ? vm.newString(stdinLines[nextLine++] as string)
        : vm.undefined,
    );
    const consoleObject = vm.newObject();
    vm.setProp(consoleObject, 'log', print);
    vm.setProp(consoleObject, 'error', print);
    vm.setProp(vm.global, 'console', consoleObject);
    vm.setProp(vm.global, 'print', print);
    vm.setProp(vm.global, 'readline', readline);
    const input = vm.newString(stdin);
    vm.setProp(vm.global, 'input', input);
    for (const handle of [print, readline, consoleObject, input]) handle.dispose();

    if (test.kind === 'stdio' || !strict) {
      const source = test.kind === 'stdio' ? code : `${code}\n;\n${test.code}\n`;
      const ran = evaluate(source, 'solution.js');
      if (!ran.ok) return finish(ran.outcome);
      ran.value.dispose();
      if (test.kind === 'assert') return finish({ status: 'passed', stdout });
      return sameOutput(stdout, test.expected_stdout)
        ? finish({ status: 'passed', stdout })
        : finish({ status: 'failed', stdout, reason: 'stdout differs from the expected output' });
    }
    return finish(runStrictAssert(vm, reader, runtime, code, test.code, evaluate, classify, () => stdout));
  };
  try {
    const result = judge();
    finished?.(result);
    return result;
  } finally {
    if (heap.bytes() > QUICKJS_RETIRE_HEAP_BYTES) {
      // Not freed here (seconds, for a full heap): the worker is terminated instead.
      discardHeap();
    } else {
      try {
        reader.dispose();
        vm.dispose();
        runtime.dispose();
      } catch {
        discardHeap();
      }
    }
  }
}

/**
 * A strict assert test: the program and the test are separate scripts (the program's text cannot
 * swallow the test's), the intrinsics are restored and frozen between them, loose equality in the
 * test becomes strict, and the test passes only when its script — and the promise it evaluates to,
 * if any — completes. The host sees that completion itself; nothing in the VM can report it.
 */
function runStrictAssert(
  vm: QuickJSContext,
  reader: QuickJsTextReader,
  runtime: QuickJSRuntime,
  code: string,
  testCode: string,
  evaluate: (source: string, filename: string) => Evaluation,
  classify: (message: string) => Omit<CodeTestResult, 'index' | 'elapsed_ms'>,
  stdout: () => string,
): Omit<CodeTestResult, 'index' | 'elapsed_ms'> {
  const prelude = evaluate(JAVASCRIPT_SEAL, 'harness.js');
  if (!prelude.ok) return prelude.outcome;
  const seal = prelude.value;
  try {
    const program = evaluate(code, 'solution.js');
    if (!program.ok) return program.outcome;
    program.value.dispose();
    const sealed = vm.callFunction(seal, vm.undefined);
    if (sealed.error) {
      const message = thrownMessage(vm, reader, sealed.error);
      sealed.error.dispose();
      return classify(message);
    }
    const refusal = vm.getString(sealed.value);
    sealed.value.dispose();
    if (refusal) return { status: 'failed', stdout: stdout(), reason: refusal };
  } finally {
    seal.dispose();
  }
  const ran = evaluate(tightenEquality(testCode), 'test.js');
  if (!ran.ok) return ran.outcome;
  const jobs = runtime.executePendingJobs();
  if (jobs.error) {
    const message = thrownMessage(vm, reader, jobs.error);
    jobs.error.dispose();
    ran.value.dispose();
    return classify(message);
  }
  const settled = vm.getPromiseState(ran.value);
  ran.value.dispose();
  if (settled.type === 'pending') {
    return { status: 'failed', stdout: stdout(), reason: "the test's promise never settled" };
  }
  if (settled.type === 'rejected') {
    const message = thrownMessage(vm, reader, settled.error);
    settled.error.dispose();
    return classify(message);
  }
  if (!settled.notAPromise) settled.value.dispose();
  return { status: 'passed', stdout: stdout() };
}

/** What a thrown value says, cut to {@link MESSAGE_CHARS}: its name and message, or the value. */
function thrownMessage(vm: QuickJSContext, reader: QuickJsTextReader, handle: QuickJSHandle): string {
  const cut = ({ text, length }: { text: string; length: number }) =>
    length > text.length ? `${text}… (${length - text.length} more characters)` : text;
  if (vm.typeof(handle) === 'string') return cut(reader.read(handle, MESSAGE_CHARS));
  if (vm.typeof(handle) === 'object') {
    const field = (key: string) => {
      let value: QuickJSHandle;
      try {
        value = vm.getProp(handle, key);
      } catch {
        return undefined; // a getter that throws, or the deadline passed inside one
      }
      try {
        return vm.typeof(value) === 'string' ? cut(reader.read(value, MESSAGE_CHARS)) : undefined;
      } finally {
        value.dispose();
      }
    };
    const name = field('name');
    const message = field('message');
    if (name !== undefined || message !== undefined) return `${name ?? 'Error'}: ${message ?? ''}`;
  }
  return `threw ${cut(reader.read(handle, MESSAGE_CHARS))}`;
}
