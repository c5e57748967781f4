/**
 * The largest site.json the editor opens or writes. The 6,000-page benchmark file is about
 * 0.2 MB; this leaves room for far larger sites while keeping a stray binary file out.
 * A module of its own: reading a file with it (file-access.ts, `embed-console convert`) does not
 * load the editor's call schemas.
 */
export const MAX_SITE_FILE_CHARACTERS = 10_000_000
