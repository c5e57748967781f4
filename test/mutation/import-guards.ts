/*
 * Imports every guard module before any test runs (vitest.mutation.config.ts only). A test that
 * reaches a module lazily (the CLI imports its commands on demand) would otherwise be counted as
 * covering that module's static initialisers (its constants and patterns): Stryker would then run
 * only that test against them and call them survivors, when they run once, at import, before any
 * test (which `ignoreStatic` in stryker.config.mjs ignores).
 */
import '../../src-main/user-api/redact'
import '../../src-shared/json/depth'
import '../../src-main/user-files/file-access'
import '../../src-main/user-files/user-file-writes'
import '../../src-main/storage/atomic-write'
import '../../src-main/storage/csv-export'
import '../../src-main/profiles/vault'
import '../../src-main/bulk/bulk-journal'
import '../../src-main/bulk/run-leases'
import '../../src-main/groups/rotation-journal'
import '../../src-main/web/web-server'
import '../../src-main/web/web-sessions'
import '../../src-main/web/web-admission'
import '../../src-main/web/web-answers'
import '../../src-main/bulk/bulk-input'
import '../../src-shared/bulk/decode'
import '../../src-shared/text/utf8'
