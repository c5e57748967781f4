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

/**
 * Runs a Node script in a new network namespace with loopback up; resolves with its output.
 * `addresses` are given to the loopback interface too (`203.0.113.7/32`): addresses that are
 * neither loopback nor private, for a server the script must reach as if it were on the web.
 */
export function runInNetworkNamespace(
  script: string,
  timeoutMs: number,
  addresses: readonly string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const setUp = ['ip link set lo up', ...addresses.map((address) => `ip addr add ${address} dev lo`)].join(' && ')
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-n', 'sh', '-c', `${setUp} && exec "$0" "$@"`, process.execPath, script], {
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
