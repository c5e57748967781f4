import type { Configuration } from 'electron-builder'
import afterPack from './after-pack'

/**
 * Packaging (`npm run dist`): AppImage and deb on Linux, dmg on macOS, an NSIS installer on
 * Windows. Only the built app (out/) and the packages main loads at run time go into app.asar;
 * the renderer's packages are already bundled into out/renderer.
 */
const config: Configuration = {
  appId: 'com.embed-console.desktop',
  productName: 'Embed Console',
  directories: { output: 'release', buildResources: 'packaging' },
  files: [
    'out/**/*',
    'package.json',
    // Bundled into out/renderer by the build (with what they depend on): not needed again in
    // app.asar. test/unit/packaging checks that everything main imports is still there.
    '!node_modules/{react,react-dom,react-colorful,scheduler,monaco-editor,dompurify,marked,@monaco-editor,state-local,@tanstack,@dnd-kit,tslib,zustand,zundo,undici,@types}{,/**/*}',
  ],
  asar: true,
  // libsql's native binary cannot be loaded from inside an archive: it is kept beside it.
  asarUnpack: ['node_modules/libsql/**/*', 'node_modules/@libsql/**/*'],
  afterPack,
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Embed Console <embed-console@users.noreply.github.com>',
    synopsis: 'User groups and site.json for an embedded-dashboard product',
  },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
  },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
}

export default config
