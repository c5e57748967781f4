import { builtinModules } from 'node:module'
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import reactHooks from 'eslint-plugin-react-hooks'
import simpleImportSort from 'eslint-plugin-simple-import-sort'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Import boundaries (docs/architecture.md): shared imports neither side; main and the renderer never import
// each other; a feature folder never imports another feature.
// ESLint keeps one value per rule: a later block matching the same file replaces an earlier
// block's `no-restricted-imports` whole, so every block repeats the patterns that still apply.
const restrict = (patterns, paths = []) => ({ 'no-restricted-imports': ['error', { patterns, paths }] })

const rendererPatterns = [
  { group: ['**/src-main/**', '**/src-main'], message: 'The renderer never imports main: go through the contract.' },
  { group: ['electron', 'node:*'], message: 'The renderer runs in a sandboxed page: no Electron, no Node. Go through the contract.' },
]

// Node's modules by their bare names too ('fs', 'path/posix'): matched exactly, unlike patterns.
const nodeModulePaths = builtinModules.map((name) => ({
  name,
  message: 'The renderer runs in a sandboxed page: no Node. Go through the contract.',
}))

const featureNames = ['groups', 'profiles', 'site-editor', 'activity', 'bulk', 'team']
const others = (feature) => featureNames.filter((other) => other !== feature).join('|')
const featureBoundaries = featureNames.map((feature) => ({
  files: [`src-renderer/features/${feature}/**/*.{ts,tsx}`],
  rules: restrict(
    [
      ...rendererPatterns,
      {
        // By a path through features/, or relatively from next door (../profiles/ProfileForm).
        regex: `(^|/)features/(${others(feature)})(/|$)|^(\\.\\./)+(${others(feature)})(/|$)`,
        message: 'Features do not import each other; compose them in src-renderer/app.',
      },
    ],
    nodeModulePaths,
  ),
}))

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // A function a reader can hold at once: a service is composed of named parts and a screen of
    // named components, none over 200 lines (blank lines and comments not counted).
    files: ['src-main/**/*.ts', 'src-renderer/**/*.{ts,tsx}', 'src-shared/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 200, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    // One import order, kept by `eslint --fix`: side effects first (in their written order), then
    // Node's modules, packages, and the project's own files, each sorted, with no blank lines.
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      'simple-import-sort/imports': ['error', { groups: [['^\\u0000', '^node:', '^@?\\w', '^', '^\\.']] }],
      'simple-import-sort/exports': 'error',
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: restrict([
      {
        group: ['**/src-main/**', '**/src-renderer/**', 'node:*', 'electron', 'react'],
        message: 'src-shared is pure TypeScript: no Node, no DOM, no app code.',
      },
    ]),
  },
  {
    files: ['src-main/**/*.ts'],
    rules: restrict([{ group: ['**/src-renderer/**'], message: 'Main never imports the renderer.' }]),
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(rendererPatterns, nodeModulePaths),
    },
  },
  ...featureBoundaries,
  {
    // Only the shell and the preload may import Electron (it cannot even load outside Electron).
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/index.ts', 'src-main/preload.ts', 'src-main/shell/**'],
    rules: restrict([
      { group: ['**/src-renderer/**'], message: 'Main never imports the renderer.' },
      { group: ['electron'], message: 'Only the Electron shell imports electron; pass what you need in.' },
    ]),
  },
  {
    // Storage is main's floor: the features keep their data through it, so it imports none of them
    // (the app's own migration list, which names the features' tables, lives above them).
    files: ['src-main/storage/**/*.ts'],
    rules: restrict([
      { group: ['**/src-renderer/**'], message: 'Main never imports the renderer.' },
      { group: ['electron'], message: 'Only the Electron shell imports electron; pass what you need in.' },
      { regex: '^\\.\\./(?!\\.\\./)', message: 'storage/ imports no feature of main: the features build on it.' },
    ]),
  },
  // Layout is Prettier's (npm run format:check): no rule of ESLint's may disagree with it.
  prettier,
  {
    // After Prettier's, which turns max-len off: comments are not Prettier's to wrap, and a reader
    // sees one whole beside the code, so none is over 140 characters (Prettier's print width).
    // The code limit is out of reach on purpose: code lines are Prettier's.
    files: ['src-main/**/*.ts', 'src-renderer/**/*.{ts,tsx}', 'src-shared/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { 'max-len': ['error', { code: 10_000, comments: 140, ignoreUrls: true }] },
  },
)
