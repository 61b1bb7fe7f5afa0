import { existsSync, readdirSync, statSync } from 'node:fs';
import type { ProgramContext } from './run-code-languages.js';

/** The server-side folder of jars that `java` and `junit` programs get on their classpath. */
export const JAVA_CLASSPATH_ENV = 'REWARDKIT_SANDBOX_JAVA_CLASSPATH';

/** Debian's javatuples (`libjavatuples-java`): upstream's image gives every Java program javatuples 1.2. */
const DEBIAN_JARS = ['/usr/share/java/javatuples.jar'];

/** The JVM's heap for a program under `memoryMb`: room is left for metaspace, code and thread stacks. */
export const jvmHeapMb = (memoryMb: number): number => Math.max(16, Math.floor(memoryMb * 0.75));

/** Compilers are not the program under test: they get a fixed heap and only the quick JIT tier. */
export const JVM_COMPILER_FLAGS = ['-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'] as const;

/**
 * Host directories the JDK and the classpath need in the sandbox: the JDK reads its configuration
 * (security policy, module settings) from /etc/java-N-openjdk, and the server's jar folder.
 */
export function jvmBinds(): string[] {
  const etc = existsSync('/etc')
    ? readdirSync('/etc')
        .filter((name) => /^java-\d+-openjdk$/.test(name))
        .map((name) => `/etc/${name}`)
    : [];
  const folder = process.env[JAVA_CLASSPATH_ENV];
  return folder ? [...etc, folder] : etc;
}

/**
 * Why the server's jar folder cannot be used (the request is then refused with a SandboxError
 * that says so, rather than run without the jars the operator meant to give it), or `undefined`.
 */
export function javaClasspathProblem(): string | undefined {
  const folder = process.env[JAVA_CLASSPATH_ENV];
  if (!folder) return undefined;
  if (!folder.startsWith('/') || !existsSync(folder) || !statSync(folder).isDirectory()) {
    return `${JAVA_CLASSPATH_ENV} is "${folder}", which is not an absolute path to a folder on the server: point it at a folder of jars, or unset it`;
  }
  if (folder === '/tmp' || folder.startsWith('/tmp/')) {
    return `${JAVA_CLASSPATH_ENV} is "${folder}", under /tmp, which the sandbox replaces with its own: move the jars to a folder outside /tmp`;
  }
  return undefined;
}

/**
 * The classpath of a Java program, after upstream's `run_java`: the working directory, the
 * server's jars (Debian's javatuples where installed, then every jar in the folder named by
 * `REWARDKIT_SANDBOX_JAVA_CLASSPATH`, bound read-only) and the request's own `.jar` files.
 */
export function javaClasspath(program: ProgramContext, first: readonly string[] = []): string {
  const folder = process.env[JAVA_CLASSPATH_ENV];
  const serverJars = [
    ...DEBIAN_JARS.filter((jar) => existsSync(jar)),
    ...(folder && javaClasspathProblem() === undefined
      ? readdirSync(folder)
          .filter((name) => name.endsWith('.jar'))
          .sort()
          .map((name) => `${folder.replace(/\/$/, '')}/${name}`)
      : []),
  ];
  const requestJars = program.fileNames.filter((name) => name.endsWith('.jar'));
  return ['.', ...first, ...serverJars, ...requestJars].join(':');
}
