/**
 * The system's file dialogs, as the docs files and bulk results need them. The desktop app passes
 * Electron's (src-main/shell/electron-file-dialogs.ts); browser mode and the CLI have none, and paths are
 * typed there. Each answers a path the person chose, or null when they cancelled.
 */
export interface FileDialogs {
  chooseFileToOpen(): Promise<string | null>
  /** The system's save dialog asks before replacing a file. `results`: a bulk run's results file. */
  chooseFileToSave(purpose: 'saveAs' | 'export' | 'results', currentPath: string | null): Promise<string | null>
  chooseDocsFolder(currentFolder: string | null): Promise<string | null>
}
