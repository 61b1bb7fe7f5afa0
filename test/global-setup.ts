import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The CLI tests run `node dist/cli/main.js` as a user would, so the build must be current.
export default function setup(): void {
  // Helpers iterating on one module can skip the build with RK_SKIP_BUILD=1.
  if (process.env.RK_SKIP_BUILD === '1') return;
  const root = fileURLToPath(new URL('..', import.meta.url));
  // The library and the inspector's web app (dist/view-app), which the view tests serve; `npm
  // install` builds nothing (the package builds in `prepack`, so users' installs run no script).
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}
