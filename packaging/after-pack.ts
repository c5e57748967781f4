import { join } from 'node:path'
import { flipFuses, type FuseConfig, FuseV1Options, FuseVersion } from '@electron/fuses'
import type { AfterPackContext } from 'electron-builder'

/**
 * The Electron fuses of every packaged build: switches compiled into the Electron binary that no
 * environment variable or command-line flag can turn back on. Every fuse is set explicitly
 * (`strictlyRequireAllFuses`), so a newer Electron with a new fuse fails the build until it is
 * decided here.
 */
export const FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  // The binary cannot be started as plain Node (ELECTRON_RUN_AS_NODE) to run any script with the app's rights.
  [FuseV1Options.RunAsNode]: false,
  // Cookies and the rest of the session's storage are encrypted with the OS keychain's key.
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS cannot preload code into main.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect and friends cannot attach a debugger to main.
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // app.asar is checked against the hash electron-builder embeds (macOS and Windows).
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  // The app loads only from app.asar, never from a loose app/ folder placed beside it.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // One V8 snapshot for every process, as Electron ships it.
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // The renderer is served from app://, so file:// gets no extra privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  // Electron's default: WebAssembly bounds checks through trap handlers.
  [FuseV1Options.WasmTrapHandlers]: true,
} satisfies FuseConfig

/** electron-builder's Arch.arm64 (a const enum there, so not importable at run time). */
const ARM64 = 3

/** Where electron-builder put the Electron binary of this build (as its own fuse step finds it). */
export function electronBinaryPath(context: Pick<AfterPackContext, 'appOutDir' | 'electronPlatformName' | 'packager'>): string {
  const { appOutDir, electronPlatformName, packager } = context
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return join(appOutDir, `${packager.appInfo.productFilename}.app`)
  if (electronPlatformName === 'win32') return join(appOutDir, `${packager.appInfo.productFilename}.exe`)
  return join(appOutDir, (packager as unknown as { executableName: string }).executableName)
}

/**
 * electron-builder's afterPack hook: runs once app.asar is written and before the binary is
 * signed, so the signature covers the flipped fuses. An arm64 macOS binary's ad-hoc signature is
 * invalidated by the change and must be redone for it to start at all.
 */
export default async function afterPack(context: AfterPackContext): Promise<void> {
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && (context.arch as number) === ARM64
  await flipFuses(electronBinaryPath(context), { ...FUSES, resetAdHocDarwinSignature })
}
