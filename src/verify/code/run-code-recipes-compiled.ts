import { existsSync } from 'node:fs';
import {
  JVM_COMPILER_FLAGS,
  javaClasspath,
  javaClasspathProblem,
  jvmBinds,
  jvmHeapMb,
} from './run-code-jvm.js';
import type { LanguageRecipe, ProgramContext } from './run-code-languages.js';

/**
 * The namespaces .NET's console template imports implicitly (`ImplicitUsings`), which upstream's
 * `dotnet new console` gives every program; mcs knows no `global using`, so they are prepended.
 * `System.Net.Http` is left out: Debian's mono-mcs does not install it (and the sandbox has no network).
 */
const IMPLICIT_USINGS = [
  'System',
  'System.IO',
  'System.Collections.Generic',
  'System.Linq',
  'System.Threading',
  'System.Threading.Tasks',
];

/** Lines that must stay before any using directive: comments, `#define`/`#undef`, `extern alias`. */
const CSHARP_PREAMBLE =
  /^(?:[ \t]*(?:\/\/[^\n]*|#[ \t]*(?:define|undef)\b[^\n]*|extern[ \t]+alias\b[^\n]*)?\r?\n)*/;

/**
 * The implicit usings, put at the start of the first line after the preamble so that compiler
 * messages keep their line numbers. A namespace the code imports again is only warning CS0105.
 */
export function withImplicitUsings(code: string): string {
  const at = CSHARP_PREAMBLE.exec(code)?.[0].length ?? 0;
  const usings = IMPLICIT_USINGS.map((ns) => `using ${ns};`).join(' ');
  return `${code.slice(0, at)}${usings} ${code.slice(at)}`;
}

/**
 * Under .NET a failed `Debug.Assert` (or `Trace.Assert`) ends the process: "Process terminated.
 * Assertion failed." on stderr and exit code 134 (SIGABRT). Mono's default listener only
 * writes the failure and goes on, so this listener, compiled into the program and installed by
 * `main.exe.config`, writes the same message and exits 134.
 */
const ASSERT_LISTENER = `namespace RewardkitSandbox {
  public sealed class FailingTraceListener : System.Diagnostics.DefaultTraceListener {
    public override void Fail(string message, string detailMessage) {
      System.Console.Out.Flush();
      System.Console.Error.WriteLine("Process terminated. Assertion failed.");
      if (!string.IsNullOrEmpty(message)) System.Console.Error.WriteLine(message);
      if (!string.IsNullOrEmpty(detailMessage)) System.Console.Error.WriteLine(detailMessage);
      System.Console.Error.WriteLine(new System.Diagnostics.StackTrace(2, true).ToString());
      System.Console.Error.Flush();
      System.Environment.Exit(134);
    }
  }
}
`;
const ASSERT_CONFIG = `<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <system.diagnostics>
    <assert assertuienabled="false"/>
    <trace>
      <listeners>
        <clear/>
        <add name="rewardkit" type="RewardkitSandbox.FailingTraceListener, main"/>
      </listeners>
    </trace>
  </system.diagnostics>
</configuration>
`;
const ASSERT_SOURCE = 'RewardkitDebugAssert.cs';

/**
 * Upstream runs `dotnet new console` + `dotnet run` (a Debug build: DEBUG and TRACE defined,
 * every `.cs` file of the directory compiled); here Debian's mono compiles the same with `mcs`,
 * referencing the assemblies the console template gives that Debian's mono has (System.Numerics,
 * Microsoft.CSharp; System, System.Core and System.Xml are mcs's defaults).
 */
const csharp: LanguageRecipe = {
  source: 'Program.cs',
  rewrite: withImplicitUsings,
  extraFiles: () => ({ [ASSERT_SOURCE]: ASSERT_LISTENER, 'main.exe.config': ASSERT_CONFIG }),
  compile: ({ fileNames }) => [
    '/usr/bin/mcs',
    '-d:DEBUG',
    '-d:TRACE',
    '-r:System.Numerics.dll',
    '-r:Microsoft.CSharp.dll',
    '-out:main.exe',
    'Program.cs',
    ASSERT_SOURCE,
    ...fileNames.filter((name) => name.endsWith('.cs') && name !== 'Program.cs' && name !== ASSERT_SOURCE),
  ],
  run: () => ['/usr/bin/mono', 'main.exe'],
  memory: 'address-space',
  needs: ['/usr/bin/mcs', '/usr/bin/mono', '/usr/lib/mono/4.5/System.Numerics.dll'],
  debianPackage: 'mono-mcs',
  // Mono's config (assembly maps, machine.config for the listener's app config).
  binds: () => ['/etc/mono'],
};

/**
 * Upstream: `dmd file.d -unittest -of=test`, then `./test` (the unit tests run before `main`,
 * and a failing one exits 1). Debian has no dmd: LDC's dmd-compatible `ldmd2` takes the same
 * flags; GDC (`-funittest`) is the fallback where only it is installed.
 */
const dWithLdc: LanguageRecipe = {
  source: 'main.d',
  compile: () => ['/usr/bin/ldmd2', 'main.d', '-unittest', '-of=test'],
  run: () => ['./test'],
  memory: 'address-space',
  needs: ['/usr/bin/ldmd2'],
  debianPackage: 'ldc',
  // LDC reads its import paths and default switches from /etc/ldc2.conf.
  binds: () => ['/etc/ldc2.conf'],
};
const dWithGdc: LanguageRecipe = {
  source: 'main.d',
  compile: () => ['/usr/bin/gdc', '-funittest', 'main.d', '-o', 'test'],
  run: () => ['./test'],
  memory: 'address-space',
  needs: ['/usr/bin/gdc'],
  debianPackage: 'gdc',
};

/**
 * Upstream copies its Go module (testify and friends) and runs `go test file_test.go`. Here Go
 * runs in GOPATH mode with Debian's Go libraries (`/usr/share/gocode`: testify from
 * golang-github-stretchr-testify-dev) on the GOPATH. The test binary is built first under
 * `compile_timeout` with the compiler's memory, so that `go test` in the run finds every package
 * in the sandbox's build cache and only links and runs; its output is then upstream's.
 */
// cgo stays on (unlike the go recipe): the standard library then comes prebuilt from Debian's
// GOROOT/pkg, where CGO_ENABLED=0 recompiles net and net/http (which testify imports) every run.
const GO_ENV = { GOCACHE: '/tmp/.cache/go-build', GOPATH: '/tmp/go:/usr/share/gocode', GO111MODULE: 'off' };
const goTest: LanguageRecipe = {
  source: 'main_test.go',
  compile: () => ['/usr/bin/go', 'test', '-c', '-o', 'main.test', 'main_test.go'],
  run: () => ['/usr/bin/go', 'test', 'main_test.go'],
  memory: 'resident',
  needs: ['/usr/bin/go'],
  debianPackage: 'golang-go',
  env: GO_ENV,
};

const JUNIT_CONSOLE = '/usr/share/java/junit-platform-console-standalone.jar';

/** Upstream's `find_java_public_class_name`: the first `public [abstract|final] class Name`. */
export function javaPublicClassName(code: string): string | undefined {
  return /\bpublic\s+(abstract\s+|final\s+)?class\s+(\w+)/.exec(code)?.[2];
}

/**
 * Upstream: the code is written to `<public class>.java`, every `.java` file is compiled against
 * the JUnit console launcher, which then scans the classpath for tests. Debian's junit5 ships the
 * same launcher (`junit-platform-console-standalone.jar`, 1.9; upstream has 1.8).
 */
const junit: LanguageRecipe = {
  source: ({ code }) => `${javaPublicClassName(code) ?? 'Main'}.java`,
  refuse: javaClasspathProblem,
  compile: (program) => [
    '/usr/bin/javac',
    ...JVM_COMPILER_FLAGS.map((flag) => `-J${flag}`),
    '-cp',
    javaClasspath(program, [JUNIT_CONSOLE]),
    ...javaSources(program),
  ],
  run: (program) => [
    '/usr/bin/java',
    `-Xmx${jvmHeapMb(program.memoryMb)}m`,
    '-XX:+UseSerialGC',
    '-jar',
    JUNIT_CONSOLE,
    '--class-path',
    javaClasspath(program, [JUNIT_CONSOLE]),
    '--scan-class-path',
  ],
  memory: 'resident',
  needs: ['/usr/bin/javac', '/usr/bin/java', JUNIT_CONSOLE],
  debianPackage: 'junit5',
  binds: jvmBinds,
};

/** `*.java` as the shell expands it in upstream's `javac … *.java`: the working directory's Java files. */
function javaSources(program: ProgramContext): string[] {
  const source = `${javaPublicClassName(program.code) ?? 'Main'}.java`;
  const others = program.fileNames.filter((name) => name.endsWith('.java') && !name.includes('/'));
  return [...new Set([...others, source])].sort();
}

/**
 * Upstream's `find_scala_classname`: the name of the first `object`, unless the first match of
 * its pattern is the `extends … {` alternative (then there is none, and the program is refused).
 */
export function scalaObjectName(code: string): string | undefined {
  const match = /object\s+(\w+)(\s*)|(\s+extends\s+\w+\s*){/.exec(code);
  return match?.[1] || undefined;
}

/** Upstream: `scalac file.scala`, then `scala ObjectName`. Debian's Scala is 2.11. */
const scala: LanguageRecipe = {
  source: 'main.scala',
  refuse: ({ code }) => (scalaObjectName(code) ? undefined : 'Object name not found.'),
  compile: () => ['/usr/bin/scalac', ...JVM_COMPILER_FLAGS.map((flag) => `-J${flag}`), 'main.scala'],
  run: ({ code, memoryMb }) => [
    '/usr/bin/scala',
    `-J-Xmx${jvmHeapMb(memoryMb)}m`,
    '-J-XX:+UseSerialGC',
    scalaObjectName(code) ?? 'Main',
  ],
  memory: 'resident',
  needs: ['/usr/bin/scalac', '/usr/bin/scala', '/usr/bin/java'],
  debianPackage: 'scala',
  binds: jvmBinds,
};

const KOTLIN_LIB = '/usr/share/kotlin/kotlinc/lib';

/**
 * Upstream: `kotlin file.kts`. Debian's Kotlin (1.3) has no script runner in `kotlin` ("running
 * Kotlin scripts is not yet supported"); its compiler runs scripts (`kotlinc -script`), started
 * here as `kotlinc` starts it but with the heap sized to the limit (and without `-noverify`,
 * which JDK 17 warns about on stderr). The script is compiled and run in one JVM, under `run_timeout`.
 */
const kotlinScript: LanguageRecipe = {
  source: 'main.kts',
  run: ({ memoryMb }) => [
    '/usr/bin/java',
    // Half the limit, not three quarters: the compiler's classes and code take ~150 MB beside the heap.
    `-Xmx${Math.max(16, Math.floor(memoryMb / 2))}m`,
    '-XX:+UseSerialGC',
    '-cp',
    `${KOTLIN_LIB}/kotlin-preloader.jar`,
    'org.jetbrains.kotlin.preloading.Preloader',
    '-cp',
    `${KOTLIN_LIB}/kotlin-compiler.jar`,
    'org.jetbrains.kotlin.cli.jvm.K2JVMCompiler',
    '-script',
    'main.kts',
  ],
  memory: 'resident',
  needs: ['/usr/bin/java', `${KOTLIN_LIB}/kotlin-preloader.jar`, `${KOTLIN_LIB}/kotlin-compiler.jar`],
  debianPackage: 'kotlin',
  binds: jvmBinds,
};

/** SandboxFusion's compiled and test-runner languages (`major.py`, `minor.py`) beyond the first nine. */
export const COMPILED_RECIPES: Readonly<Record<string, LanguageRecipe>> = {
  csharp,
  // Chosen once, by what is installed: LDC where present, else GDC, else LDC's package is named.
  D_ut: existsSync('/usr/bin/ldmd2') || !existsSync('/usr/bin/gdc') ? dWithLdc : dWithGdc,
  go_test: goTest,
  junit,
  scala,
  kotlin_script: kotlinScript,
};
