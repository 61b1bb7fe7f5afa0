/**
 * The Python program that supervises one `/run_code` job inside bubblewrap. It reads one JSON job
 * on stdin — the files to write into the working directory (base64), the steps to run (compile,
 * then run), their limits, the files to fetch and a nonce — and reports one nonce-tagged JSON line
 * on fd 3, which no step can reach (closed before exec, and the supervisor is non-dumpable).
 *
 * Why a supervisor rather than running the program directly under bubblewrap:
 * - the working directory is the sandbox's own size-limited tmpfs, so files go in and fetched files
 *   come out through the supervisor, and nothing the program writes touches the host's disk;
 * - the deadline is kept by a clock, not by the pipes: a program that closes stdout and stderr and
 *   then sleeps is still killed at its deadline;
 * - memory is counted for the whole sandbox — the resident memory of every process in its PID
 *   namespace plus what its tmpfs mounts hold (the root, /dev/shm, the working directory) — and
 *   a step over the limit is killed, which also covers runtimes (Node, the JVM) that cannot
 *   start under an address-space limit of a few hundred MB.
 */
export const RUN_CODE_SUPERVISOR = String.raw`import base64, json, os, resource, select, signal, subprocess, sys, time

def harden():
    import ctypes
    try:
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 0: steps cannot read our memory
    except Exception:
        pass

PAGE = os.sysconf('SC_PAGE_SIZE')
ME = os.getpid()

def sandbox_pids():
    # The sandbox has its own PID namespace: /proc lists only its processes. Pid 1 is bubblewrap's init.
    pids = []
    for name in os.listdir('/proc'):
        if name.isdigit():
            pid = int(name)
            if pid not in (1, ME):
                pids.append(pid)
    return pids

def own_mounts(workdir):
    # The tmpfs mounts a program can write (the root, /dev/shm and the working directory), one
    # path per device; the bound system folders and /proc are the host's, never counted or fetched.
    mounts = {}
    for path in ('/', '/dev/shm', workdir):
        try:
            mounts.setdefault(os.stat(path).st_dev, path)
        except OSError:
            pass
    return mounts

def used_memory(mounts):
    total = 0
    for pid in sandbox_pids():
        try:
            with open('/proc/%d/statm' % pid) as f:
                total += int(f.read().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):
            pass
    for path in mounts.values():
        st = os.statvfs(path)
        total += (st.f_blocks - st.f_bfree) * st.f_frsize
    return total

def kill_all():
    # Everything but us: forked children, and processes that left the step's process group.
    # Orphans are reaped by bubblewrap's init; the step itself by Popen.wait.
    for pid in sandbox_pids():
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

def run_step(step, limits, workdir, mounts):
    timeout = step['timeout_s']
    address_space = step['address_space_bytes']

    def limit_child():
        os.setpgid(0, 0)
        cpu = max(1, int(timeout) + 1)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits['file_bytes'], limits['file_bytes']))
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    started = time.monotonic()
    try:
        p = subprocess.Popen(step['argv'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=workdir, env=step['env'], preexec_fn=limit_child, close_fds=True)
    except OSError as e:
        return {'status': 'error', 'exit_code': None, 'signal': None, 'stdout': '',
                'stderr': 'could not start %s: %s' % (step['argv'][0], e), 'elapsed_s': 0.0}
    pending = (step.get('stdin') or '').encode('utf-8')
    stdin_fd = p.stdin.fileno()
    if pending:
        os.set_blocking(stdin_fd, False)
    else:
        p.stdin.close(); stdin_fd = None
    out = {p.stdout.fileno(): bytearray(), p.stderr.fileno(): bytearray()}
    open_fds = list(out)
    # The step's exit wakes the wait at once (pidfd), rather than at the next 20 ms tick.
    try:
        exit_fd = [os.pidfd_open(p.pid)]
    except (AttributeError, OSError):
        exit_fd = []
    deadline = started + timeout
    outcome = None
    last_check = 0.0
    while True:
        now = time.monotonic()
        if now >= deadline:
            outcome = 'timeout'
            break
        if p.poll() is not None:
            break
        if now - last_check >= 0.02:
            last_check = now
            if used_memory(mounts) > step['memory_bytes']:
                outcome = 'memory'
                break
        writers = [stdin_fd] if stdin_fd is not None else []
        readable, writable, _ = select.select(open_fds + exit_fd, writers, [], min(deadline - now, 0.02))
        if writable:
            try:
                sent = os.write(stdin_fd, pending[:65536])
                pending = pending[sent:]
            except (BrokenPipeError, BlockingIOError):
                pending = b''
            if not pending:
                p.stdin.close(); stdin_fd = None
        for fd in readable:
            if fd not in out:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                open_fds.remove(fd)
            elif len(out[fd]) < limits['output_bytes']:
                out[fd] += chunk
    elapsed = time.monotonic() - started
    for fd in exit_fd:
        os.close(fd)
    kill_all()
    returncode = p.wait()
    kill_all()
    for fd in open_fds:
        os.set_blocking(fd, False)
        try:
            while len(out[fd]) < limits['output_bytes']:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                out[fd] += chunk
        except BlockingIOError:
            pass
    if stdin_fd is not None:
        p.stdin.close()
    p.stdout.close(); p.stderr.close()
    stdout, stderr = (bytes(out[f][: limits['output_bytes']]).decode('utf-8', 'replace') for f in out)
    signal_number = -returncode if returncode < 0 else None
    if outcome is None and signal_number == signal.SIGXCPU:
        outcome = 'timeout'
    return {'status': outcome or 'finished', 'exit_code': returncode if outcome != 'timeout' else None,
            'signal': signal_number, 'stdout': stdout, 'stderr': stderr, 'elapsed_s': elapsed}

def main():
    data = sys.stdin.buffer.read()
    if not data:
        os._exit(0)  # released by the pool without a job
    job = json.loads(data.decode('utf-8'))
    harden()
    chan = os.fdopen(3, 'w', encoding='utf-8')
    os.set_inheritable(3, False)
    limits = job['limits']
    resource.setrlimit(resource.RLIMIT_NPROC, (limits['processes'], limits['processes']))
    workdir = os.getcwd()
    mounts = own_mounts(workdir)
    report = {'nonce': job['nonce'], 'steps': [], 'files': {}, 'notes': [], 'error': None}
    try:
        for name, content in job['files'].items():
            path = os.path.join(workdir, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'wb') as f:
                f.write(base64.b64decode(content))
    except OSError as e:
        report['error'] = 'could not write the request files into the sandbox: %s' % e
    if report['error'] is None:
        for step in job['steps']:
            result = run_step(step, limits, workdir, mounts)
            report['steps'].append(result)
            if result['status'] != 'finished' or result['exit_code'] != 0:
                break
        for name in job['fetch_files']:
            # As upstream resolves it: relative to the working directory, or absolute in the
            # sandbox's own tree. Only regular files on the sandbox's own tmpfs mounts: a symlink
            # the program planted must not make us read /dev/zero or a bound host file. A missing
            # file is left out, as upstream does.
            path = os.path.realpath(os.path.join(workdir, name))
            try:
                own = os.stat(path).st_dev in mounts
            except OSError:
                own = False
            if not own or not os.path.isfile(path):
                if os.path.lexists(os.path.join(workdir, name)):
                    report['notes'].append('fetch_files: "%s" is not a regular file inside the working directory or elsewhere on the sandbox\'s own tmpfs (its root, /dev/shm); not fetched' % name)
                continue
            with open(path, 'rb') as f:
                report['files'][name] = base64.b64encode(f.read()).decode('ascii')
    chan.write(json.dumps(report) + '\n')
    chan.flush()
    # Every step's process is gone; the interpreter's own clean-up would only delay the answer.
    os._exit(0)

main()
`;
