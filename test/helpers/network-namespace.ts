import { spawn, spawnSync } from 'node:child_process'

/**
 * Whether this machine can give a process a network namespace of its own (`unshare -n`, which
 * needs root): one holding only loopback, where no DNS answer and no connection can leave.
 */
export function networkNamespaceSupport(): { ok: true } | { ok: false; reason: string } {
  if (process.platform !== 'linux') return { ok: false, reason: `network namespaces are Linux's, and this is ${process.platform}` }
  if (process.getuid?.() !== 0) return { ok: false, reason: 'unshare -n needs root' }
  const probe = spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' })
  if (probe.error) return { ok: false, reason: `unshare cannot run here: ${probe.error.message}` }
  if (probe.status !== 0) return { ok: false, reason: `unshare -n with ip link failed: ${probe.stderr.trim() || `exit ${probe.status}`}` }
  return { ok: true }
}

/** Runs a Node script in a new network namespace with loopback up; resolves with its output. */
export function runInNetworkNamespace(script: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`The namespace script ran past ${timeoutMs} ms. Its errors so far: ${stderr}`))
    }, timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
