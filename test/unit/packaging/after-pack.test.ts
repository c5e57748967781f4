import type * as electronFuses from '@electron/fuses'
import { FuseV1Options, FuseVersion } from '@electron/fuses'
import type { AfterPackContext } from 'electron-builder'
import { beforeEach, describe, expect, it, vi } from 'vitest'

// The hook's calls into @electron/fuses, recorded: which binary, which fuses, which platform.
const fuses = vi.hoisted(() => ({ flipFuses: vi.fn(async () => 1) }))
vi.mock('@electron/fuses', async (importOriginal) => ({ ...(await importOriginal<typeof electronFuses>()), flipFuses: fuses.flipFuses }))

const { default: afterPack, FUSES } = await import('../../../packaging/after-pack')

const ARCH = { x64: 1, arm64: 3 } as const

function contextFor(electronPlatformName: string, arch: number): AfterPackContext {
  return {
    appOutDir: '/out/dir',
    electronPlatformName,
    arch,
    packager: { appInfo: { productFilename: 'Embed Console' }, executableName: 'embed-console' },
  } as unknown as AfterPackContext
}

describe('the afterPack hook', () => {
  beforeEach(() => fuses.flipFuses.mockClear())

  it('sets every fuse, explicitly: no Node, no NODE_OPTIONS, no inspector; cookies encrypted; the app only from a checked ASAR', async () => {
    await afterPack(contextFor('linux', ARCH.x64))
    expect(fuses.flipFuses).toHaveBeenCalledTimes(1)
    const [, config] = fuses.flipFuses.mock.calls[0] as unknown as [string, Record<string | number, unknown>]
    expect(config).toEqual({
      version: FuseVersion.V1,
      strictlyRequireAllFuses: true,
      resetAdHocDarwinSignature: false,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
      [FuseV1Options.WasmTrapHandlers]: true,
    })
    // Every fuse @electron/fuses knows is decided here.
    const known = Object.values(FuseV1Options).filter((value) => typeof value === 'number')
    expect(known.every((fuse) => typeof (FUSES as Record<number, unknown>)[fuse] === 'boolean')).toBe(true)
  })

  it.each([
    ['linux', ARCH.x64, '/out/dir/embed-console', false],
    ['win32', ARCH.x64, '/out/dir/Embed Console.exe', false],
    ['darwin', ARCH.x64, '/out/dir/Embed Console.app', false],
    ['darwin', ARCH.arm64, '/out/dir/Embed Console.app', true],
    ['mas', ARCH.arm64, '/out/dir/Embed Console.app', false],
  ])('on %s (arch %i) flips the fuses of %s, resetting the ad-hoc signature: %s', async (platform, arch, binary, reset) => {
    await afterPack(contextFor(platform, arch))
    expect(fuses.flipFuses).toHaveBeenCalledWith(binary, expect.objectContaining({ resetAdHocDarwinSignature: reset }))
  })
})
