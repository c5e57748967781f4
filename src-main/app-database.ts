import { join } from 'node:path'
import { ACTIVITY_SEARCH } from './activity/activity-search'
import { migrateCatalogToKeys } from './catalog/catalog-schema'
import { type Database, type Migration, openDatabase } from './storage/database'
import { createFullTextIndex } from './storage/full-text'

/** The app's own data: profiles, secrets, the catalog of groups and the activity log. */
export const APP_DATABASE_FILE = 'embed-console.db'

/*
 * Append a migration for every change; never edit one that has shipped. Each runs once per
 * database, in a transaction, and the version it reached is in schema_migrations.
 */
export const appMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'profiles, secrets, catalog and activity',
    up(db) {
      db.exec(`
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

        -- name_key is the lower-cased name: names are unique whatever their case, across processes.
        CREATE TABLE profiles (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          name_key TEXT NOT NULL UNIQUE,
          base_url TEXT NOT NULL,
          timeout_seconds INTEGER NOT NULL,
          environment_label TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );

        -- One row a secret. keychain: ciphertext from Electron safeStorage; file: the operator's
        -- chosen fallback where no keychain exists, in clear in this owner-only database.
        CREATE TABLE secrets (
          key TEXT PRIMARY KEY,
          storage TEXT NOT NULL CHECK (storage IN ('keychain', 'file')),
          ciphertext TEXT,
          backend TEXT,
          secret TEXT,
          last4 TEXT,
          updated_at TEXT NOT NULL,
          CHECK ((storage = 'keychain' AND ciphertext IS NOT NULL AND secret IS NULL)
              OR (storage = 'file' AND secret IS NOT NULL AND ciphertext IS NULL))
        );

        -- group_sort and name_sort are natural-order keys ("g2" before "g10"); search_text is
        -- the lower-cased id and name, for substring search.
        CREATE TABLE catalog (
          profile_id TEXT NOT NULL,
          group_id TEXT NOT NULL,
          group_sort TEXT NOT NULL,
          name TEXT,
          name_sort TEXT,
          search_text TEXT NOT NULL,
          environment_tag TEXT,
          team_id INTEGER,
          mapping TEXT,
          properties TEXT,
          token_last4 TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          rotated_at TEXT,
          PRIMARY KEY (profile_id, group_id)
        ) WITHOUT ROWID;
        CREATE INDEX catalog_by_updated ON catalog (profile_id, updated_at, group_sort);
        CREATE INDEX catalog_by_group ON catalog (profile_id, group_sort);
        CREATE INDEX catalog_by_name ON catalog (profile_id, name_sort, group_sort);
        CREATE INDEX catalog_by_environment ON catalog (profile_id, environment_tag, group_sort);
        CREATE INDEX catalog_by_team ON catalog (profile_id, team_id, group_sort);

        CREATE TABLE activity (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          time TEXT NOT NULL,
          profile_id TEXT NOT NULL,
          profile_name TEXT NOT NULL,
          operation TEXT NOT NULL,
          group_id TEXT,
          outcome TEXT NOT NULL,
          http_status INTEGER,
          error_code TEXT,
          message TEXT,
          duration_ms REAL NOT NULL
        );
        CREATE INDEX activity_by_time ON activity (time);
        CREATE INDEX activity_by_profile ON activity (profile_id, seq);
        CREATE INDEX activity_by_group ON activity (group_id, seq);
        CREATE INDEX activity_by_operation ON activity (operation, seq);
        CREATE INDEX activity_by_outcome ON activity (outcome, seq);
      `)
    },
  },
  {
    version: 2,
    name: "activity keeps each call's request and response (redacted); a profile says its kind of environment",
    up(db) {
      db.exec(`
        -- JSON text, every secret the call knew and every returned token redacted before it is
        -- written; NULL when the call had none, or it was too large to keep (see ActivityLog).
        ALTER TABLE activity ADD COLUMN request TEXT;
        ALTER TABLE activity ADD COLUMN response TEXT;
        -- customer: production, writes confirmed once a session; testing; unspecified (rows of version 1).
        ALTER TABLE profiles ADD COLUMN environment_kind TEXT NOT NULL DEFAULT 'unspecified';
      `)
    },
  },
  {
    version: 3,
    name: 'bulk runs and their journal',
    up(db) {
      db.exec(`
        -- A run: one input file planned against a profile (or a bare base URL from the CLI).
        CREATE TABLE bulk_runs (
          id TEXT PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('apply', 'rotate')),
          profile_id TEXT,
          base_url TEXT NOT NULL,
          file_name TEXT NOT NULL,
          input_sha256 TEXT NOT NULL,
          state TEXT NOT NULL,
          send_create INTEGER NOT NULL,
          send_update INTEGER NOT NULL,
          concurrency INTEGER NOT NULL,
          rate_per_minute INTEGER,
          owner_pid INTEGER,
          heartbeat_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX bulk_runs_by_input ON bulk_runs (input_sha256, created_at);

        -- The journal: a row per input row, with the request as validated and where it stands.
        -- A rotation is marked 'sending' before it is sent, so a crash can never repeat it.
        CREATE TABLE bulk_items (
          run_id TEXT NOT NULL REFERENCES bulk_runs (id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          line INTEGER NOT NULL,
          group_id TEXT NOT NULL,
          request TEXT NOT NULL,
          action TEXT NOT NULL,
          state TEXT NOT NULL,
          outcome TEXT,
          attempts INTEGER NOT NULL DEFAULT 0,
          http_status INTEGER,
          error_code TEXT,
          message TEXT,
          token_last4 TEXT,
          updated_at TEXT,
          PRIMARY KEY (run_id, seq)
        ) WITHOUT ROWID;
        CREATE INDEX bulk_items_by_state ON bulk_items (run_id, state, seq);
        CREATE INDEX bulk_items_by_action ON bulk_items (run_id, action, seq);
      `)
    },
  },
  {
    version: 4,
    name: 'an index of the secrets kept in clear',
    up(db) {
      // The desktop app looks for them at every start, to encrypt them: without this it read
      // every secret (one per group) to find none.
      db.exec("CREATE INDEX secrets_in_clear ON secrets (storage) WHERE storage = 'file'")
    },
  },
  {
    version: 5,
    name: 'catalog sort indexes that put missing values last',
    up(db) {
      // The catalog sorts an empty name, tag or team id after the others: an index in that shape
      // lets a window of 100 rows be read in order instead of sorting the profile's every group.
      db.exec(`
        DROP INDEX catalog_by_name;
        DROP INDEX catalog_by_environment;
        DROP INDEX catalog_by_team;
        CREATE INDEX catalog_by_name ON catalog (profile_id, (name_sort IS NULL), name_sort, group_sort);
        CREATE INDEX catalog_by_environment ON catalog (profile_id, (environment_tag IS NULL), environment_tag, group_sort);
        CREATE INDEX catalog_by_team ON catalog (profile_id, (team_id IS NULL), team_id, group_sort);
      `)
    },
  },
  {
    version: 6,
    name: 'run leases, rotations journaled before they are sent, and how unknown ones were settled',
    up(db) {
      db.exec(`
        -- A run is sent by one process at a time: the holder of its lease (see bulk/run-leases.ts).
        -- Times are milliseconds since 1970, so the same statements run on a server database.
        ALTER TABLE bulk_runs DROP COLUMN owner_pid;
        ALTER TABLE bulk_runs DROP COLUMN heartbeat_at;
        ALTER TABLE bulk_runs ADD COLUMN lease_holder TEXT;
        ALTER TABLE bulk_runs ADD COLUMN lease_epoch INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE bulk_runs ADD COLUMN lease_expires_at INTEGER;
        ALTER TABLE bulk_runs ADD COLUMN lease_since INTEGER;
        ALTER TABLE bulk_runs ADD COLUMN lease_pid INTEGER;
        ALTER TABLE bulk_runs ADD COLUMN lease_host TEXT;
        ALTER TABLE bulk_runs ADD COLUMN lease_client TEXT;
        -- Why a run paused itself (the server stopped answering, a row failed under --bail).
        ALTER TABLE bulk_runs ADD COLUMN paused_reason TEXT;
        -- Pause at the first failed row (--bail), not only when the server stops answering.
        ALTER TABLE bulk_runs ADD COLUMN bail INTEGER NOT NULL DEFAULT 0;
        -- The lease epoch a row was claimed under: a takeover knows which rows were in flight.
        ALTER TABLE bulk_items ADD COLUMN lease_epoch INTEGER;
        CREATE INDEX bulk_runs_unfinished ON bulk_runs (input_sha256, state);

        -- Every rotation, from the form or a run, is written here (and synced) before it is sent,
        -- and stays until it is settled: 'sending' while in flight (or when its process died),
        -- 'unknown' when no answer came. A later get-or-create of the group settles it by
        -- comparing the server's token with the one sent (its fingerprint: never the token).
        CREATE TABLE rotations (
          id TEXT PRIMARY KEY,
          profile_id TEXT NOT NULL,
          group_id TEXT,
          sent_token_sha256 TEXT NOT NULL,
          run_id TEXT,
          run_seq INTEGER,
          state TEXT NOT NULL CHECK (state IN ('sending', 'unknown')),
          holder TEXT NOT NULL,
          started_at TEXT NOT NULL,
          expires_at INTEGER NOT NULL
        );
        CREATE INDEX rotations_by_group ON rotations (profile_id, group_id);

        -- How an unknown rotation turned out, and when that was learned (the call keeps its own time).
        ALTER TABLE activity ADD COLUMN settled_outcome TEXT CHECK (settled_outcome IN ('rotated', 'not_rotated'));
        ALTER TABLE activity ADD COLUMN settled_at TEXT;
      `)
    },
  },
  {
    version: 7,
    name: 'a profile says how it reaches its server: proxy and CA bundle',
    up(db) {
      // proxy_mode: environment (HTTPS_PROXY… decide), direct, or custom (proxy_url, proxy_username;
      // the password is a secret row). ca_bundle_path: a PEM file of CAs to trust besides the runtime's.
      db.exec(`
        ALTER TABLE profiles ADD COLUMN proxy_mode TEXT NOT NULL DEFAULT 'environment';
        ALTER TABLE profiles ADD COLUMN proxy_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE profiles ADD COLUMN proxy_username TEXT NOT NULL DEFAULT '';
        ALTER TABLE profiles ADD COLUMN ca_bundle_path TEXT NOT NULL DEFAULT '';
      `)
    },
  },
  {
    version: 8,
    name: "activity: the group name, the warnings and a full-text index; the environment a profile's server last gave",
    up(db) {
      db.exec(`
        -- The group's name as the answer gave it (else as the request sent it), for search.
        ALTER TABLE activity ADD COLUMN group_name TEXT;
        -- JSON array of sentences: what a call that succeeded still said (an environment mismatch).
        ALTER TABLE activity ADD COLUMN warnings TEXT;
        UPDATE activity SET group_name = coalesce(
          CASE WHEN json_valid(response) THEN json_extract(response, '$.user_group.name') END,
          CASE WHEN json_valid(request) THEN json_extract(request, '$.name') END)
        WHERE group_id IS NOT NULL;
        -- Customer or Testing: the api_environment_tag of the last group the server returned through it.
        ALTER TABLE profiles ADD COLUMN server_environment TEXT;
      `)
      createFullTextIndex(db, ACTIVITY_SEARCH)
    },
  },
  {
    version: 9,
    name: 'catalog: a key per order for keyset windows, a full-text index of ids and names, counts kept per profile, environment and page',
    up(db) {
      migrateCatalogToKeys(db)
    },
  },
  {
    version: 11,
    name: 'team mode: the outbox of calls for the team’s audit log, and the team catalog as last pulled',
    up(db) {
      db.exec(`
        -- Calls recorded here that the team's audit log has not received yet: each row is written
        -- in the transaction that records its call, and deleted once the team database has it.
        -- The events hold no token (last 4 characters and SHA-256 fingerprints only).
        CREATE TABLE team_outbox (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          event TEXT NOT NULL,
          created_at TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          last_error TEXT
        );

        -- The team's catalog as this machine last pulled it, by server and group: who changed and
        -- rotated each group, and its current token's fingerprint (to tell a kept token is stale).
        CREATE TABLE team_groups (
          server TEXT NOT NULL,
          group_id TEXT NOT NULL,
          name TEXT,
          token_last4 TEXT,
          token_sha256 TEXT,
          changed_by TEXT NOT NULL,
          changed_at TEXT NOT NULL,
          rotated_by TEXT,
          rotated_at TEXT,
          change_seq INTEGER NOT NULL,
          PRIMARY KEY (server, group_id)
        ) WITHOUT ROWID;
      `)
    },
  },
  {
    version: 12,
    name: 'team mode: calls the team database refused are parked with its sentence, and the rest go on',
    up(db) {
      db.exec(`
        -- A parked call stays out of the queue (publishing goes on without it); another Embed
        -- Console version tries it again.
        ALTER TABLE team_outbox ADD COLUMN parked_at TEXT;
        ALTER TABLE team_outbox ADD COLUMN parked_by_version TEXT;
      `)
    },
  },
  {
    version: 13,
    name: 'secrets: a change number, so a process learns of the secrets another one kept',
    up(db) {
      db.exec(`
        -- A number that grows with every secret written, by any process: each secret row carries
        -- the number of its last write, so a process reads only the secrets kept since it last
        -- looked (SecretVault.knownSecrets, which redacts every stored field of them).
        CREATE TABLE secret_changes (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
        INSERT INTO secret_changes (id, n) VALUES (1, 0);
        ALTER TABLE secrets ADD COLUMN change INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX secrets_by_change ON secrets (change);
        CREATE TRIGGER secrets_written AFTER INSERT ON secrets BEGIN
          UPDATE secret_changes SET n = n + 1;
          UPDATE secrets SET change = (SELECT n FROM secret_changes) WHERE key = new.key;
        END;
        CREATE TRIGGER secrets_rewritten AFTER UPDATE OF ciphertext, secret ON secrets BEGIN
          UPDATE secret_changes SET n = n + 1;
          UPDATE secrets SET change = (SELECT n FROM secret_changes) WHERE key = new.key;
        END;
      `)
    },
  },
  {
    version: 14,
    name: 'run leases: when the holder’s process started, so a holder that died on this machine is taken over at once',
    up(db) {
      db.exec('ALTER TABLE bulk_runs ADD COLUMN lease_started TEXT')
    },
  },
]

export function openAppDatabase(dataDir: string, onNotice?: (notice: string) => void): Database {
  return openDatabase({ path: join(dataDir, APP_DATABASE_FILE), migrations: appMigrations, secureDelete: true, onNotice })
}
