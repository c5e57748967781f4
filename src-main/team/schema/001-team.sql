-- Embed Console team schema, version 1: the shared audit log, catalog, run leases, per-group
-- rotation claims and shared profiles. Applied by `embed-console team migrate` (as an admin) in
-- one transaction. Holds no token of any kind: a group token is known here only by its last 4
-- characters and its SHA-256 fingerprint.
--
-- Who may do what:
--   embed_console_owner     owns every object (NOLOGIN); the definer functions run as it.
--   embed_console_operator  SELECT on the tables and EXECUTE on the functions that write; no
--                           INSERT, UPDATE or DELETE on any table. Each operator is a login role
--                           in it (`team add-operator`); the actor of every row is the database's
--                           session_user, never a value the client sends.
--   embed_console_admin     an operator that also edits the shared profiles.

DO $roles$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'embed_console_owner') THEN
    CREATE ROLE embed_console_owner NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'embed_console_operator') THEN
    CREATE ROLE embed_console_operator NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'embed_console_admin') THEN
    CREATE ROLE embed_console_admin NOLOGIN;
  END IF;
END
$roles$;

GRANT embed_console_operator TO embed_console_admin;
-- The admin who migrates administers the team: it may hand out these roles (add-operator).
GRANT embed_console_owner, embed_console_operator, embed_console_admin TO CURRENT_USER WITH ADMIN OPTION;

ALTER SCHEMA embed_console OWNER TO embed_console_owner;
ALTER TABLE embed_console.schema_version OWNER TO embed_console_owner;
REVOKE ALL ON SCHEMA embed_console FROM PUBLIC;
GRANT USAGE ON SCHEMA embed_console TO embed_console_operator;

SET LOCAL ROLE embed_console_owner;

-- Every change to the catalog or the profiles takes the next number: a machine pulls what
-- changed after the last number it saw. Writers take one lock (record_calls), so numbers are
-- handed out in commit order and a pull never skips a change committed late.
CREATE SEQUENCE embed_console.change_seq;

-- A group is the same group on every machine when its server (the profile's base URL,
-- normalised) and its user_group_id match, whichever local profile reached it.
CREATE TABLE embed_console.groups (
  server text NOT NULL,
  group_id text NOT NULL,
  name text,
  environment_tag text,
  team_id bigint,
  properties jsonb,
  mapping jsonb,
  token_last4 text CHECK (char_length(token_last4) <= 4),
  token_sha256 text CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
  -- When the call that saw this token was made (the client's clock): an older call published
  -- late never replaces a newer token's fingerprint.
  token_seen_at timestamptz,
  changed_by text NOT NULL,
  changed_at timestamptz NOT NULL,
  rotated_by text,
  rotated_at timestamptz,
  change_seq bigint NOT NULL,
  PRIMARY KEY (server, group_id)
);
CREATE INDEX groups_by_change ON embed_console.groups (change_seq);
CREATE INDEX groups_by_token ON embed_console.groups (server, token_sha256);

-- The audit log: one row per call made from any machine, written only by record_calls.
CREATE TABLE embed_console.activity (
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id uuid PRIMARY KEY,
  actor text NOT NULL,
  recorded_at timestamptz NOT NULL,
  called_at timestamptz NOT NULL,
  server text NOT NULL,
  profile_name text NOT NULL,
  operation text NOT NULL CHECK (operation IN ('getOrCreate', 'update', 'rotateToken')),
  group_id text,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'unknown')),
  http_status int,
  error_code text,
  message text,
  duration_ms double precision NOT NULL,
  token_last4 text CHECK (char_length(token_last4) <= 4),
  settled_outcome text CHECK (settled_outcome IN ('rotated', 'not_rotated')),
  settled_at timestamptz
);
CREATE INDEX activity_by_actor ON embed_console.activity (actor, seq);
CREATE INDEX activity_by_group ON embed_console.activity (server, group_id, seq);

-- Run leases: a bulk run is sent by the holder of its lease (see bulk/run-leases.ts). Times are
-- the database's clock.
CREATE TABLE embed_console.runs (
  id text PRIMARY KEY,
  label text NOT NULL,
  lease_holder text,
  lease_epoch bigint NOT NULL DEFAULT 0,
  lease_actor text,
  lease_pid int,
  lease_host text,
  lease_client text,
  lease_since timestamptz,
  lease_expires_at timestamptz
);

-- A rotation in flight anywhere: one row per group, taken before the rotation is journaled and
-- sent, settled when its call is recorded here. 'sending' past its expiry, or 'unknown', means
-- it may have happened: the group must be fetched (get-or-create) before anyone rotates it.
CREATE TABLE embed_console.claims (
  server text NOT NULL,
  -- The user_group_id; for a pasted token of a group nobody has seen, 'sha256:' and its fingerprint.
  group_key text NOT NULL,
  claim_id uuid NOT NULL UNIQUE,
  state text NOT NULL CHECK (state IN ('sending', 'unknown')),
  actor text NOT NULL,
  holder text NOT NULL,
  host text,
  run_id text,
  run_epoch bigint,
  sent_sha256 text NOT NULL CHECK (sent_sha256 ~ '^[0-9a-f]{64}$'),
  claimed_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (server, group_key)
);

-- Connection settings the admin shares: never a token (each operator enters their own API token).
CREATE TABLE embed_console.profiles (
  id uuid PRIMARY KEY,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  base_url text NOT NULL,
  timeout_seconds int NOT NULL CHECK (timeout_seconds BETWEEN 1 AND 300),
  environment_label text NOT NULL DEFAULT '',
  environment_kind text NOT NULL CHECK (environment_kind IN ('customer', 'testing', 'unspecified')),
  deleted boolean NOT NULL DEFAULT false,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  change_seq bigint NOT NULL
);
CREATE UNIQUE INDEX profiles_by_name ON embed_console.profiles (lower(name)) WHERE NOT deleted;
CREATE INDEX profiles_by_change ON embed_console.profiles (change_seq);

-- Takes a run's lease for p_holder (a new epoch) when it is free, expired or already theirs.
-- Answers the epoch, or a null epoch with who holds it.
CREATE FUNCTION embed_console.acquire_run(p_run text, p_label text, p_holder text, p_pid int, p_host text, p_client text, p_ttl_ms int)
RETURNS TABLE (epoch bigint, holder text, actor text, pid int, host text, client text, since timestamptz, expires_at timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    INSERT INTO runs AS r (id, label, lease_holder, lease_epoch, lease_actor, lease_pid, lease_host, lease_client, lease_since, lease_expires_at)
    VALUES (p_run, left(p_label, 300), p_holder, 1, session_user, p_pid, left(p_host, 255), p_client, now(), now() + p_ttl_ms * interval '1 millisecond')
    ON CONFLICT (id) DO UPDATE SET
      lease_holder = excluded.lease_holder, lease_epoch = r.lease_epoch + 1, lease_actor = excluded.lease_actor,
      lease_pid = excluded.lease_pid, lease_host = excluded.lease_host, lease_client = excluded.lease_client,
      lease_since = excluded.lease_since, lease_expires_at = excluded.lease_expires_at
      WHERE r.lease_holder IS NULL OR r.lease_holder = p_holder OR r.lease_expires_at <= now()
    RETURNING r.lease_epoch, r.lease_holder, r.lease_actor, r.lease_pid, r.lease_host, r.lease_client, r.lease_since, r.lease_expires_at;
  IF FOUND THEN RETURN; END IF;
  RETURN QUERY
    SELECT NULL::bigint, r.lease_holder, r.lease_actor, r.lease_pid, r.lease_host, r.lease_client, r.lease_since, r.lease_expires_at
      FROM runs r WHERE r.id = p_run;
END
$$;

CREATE FUNCTION embed_console.renew_run(p_run text, p_holder text, p_epoch bigint, p_ttl_ms int)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
BEGIN
  UPDATE runs SET lease_expires_at = now() + p_ttl_ms * interval '1 millisecond'
   WHERE id = p_run AND lease_holder = p_holder AND lease_epoch = p_epoch;
  RETURN FOUND;
END
$$;

CREATE FUNCTION embed_console.release_run(p_run text, p_holder text, p_epoch bigint)
RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
  UPDATE runs SET lease_holder = NULL, lease_expires_at = NULL WHERE id = p_run AND lease_holder = p_holder AND lease_epoch = p_epoch;
$$;

-- Claims a group before one of its tokens is rotated. outcome:
--   claimed     the caller may journal and send the rotation
--   held        another rotation of the group is in flight (actor, since)
--   unknown     an earlier rotation (actor, at) may have happened: fetch the group first
--   stale       the token sent is not the group's current one: actor rotated it at `at`
--   changed     the same, and no rotation here made it so (actor fetched the other token at `at`)
--   lease_lost  a run's row, and the run's lease is no longer the caller's
CREATE FUNCTION embed_console.claim_group(p_server text, p_group text, p_claim uuid, p_sent_sha256 text, p_holder text, p_host text,
                                          p_run text, p_epoch bigint, p_ttl_ms int)
RETURNS TABLE (outcome text, actor text, at timestamptz, group_key text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
#variable_conflict use_column
DECLARE
  k text := p_group;
  c claims%ROWTYPE;
  g groups%ROWTYPE;
BEGIN
  IF p_sent_sha256 IS NULL OR p_sent_sha256 !~ '^[0-9a-f]{64}$' THEN
    RAISE EXCEPTION 'claim_group takes the SHA-256 fingerprint of the token sent, never the token' USING ERRCODE = '22023';
  END IF;
  IF k IS NULL THEN
    SELECT gr.group_id INTO k FROM groups gr WHERE gr.server = p_server AND gr.token_sha256 = p_sent_sha256 LIMIT 1;
    k := coalesce(k, 'sha256:' || p_sent_sha256);
  END IF;
  IF p_run IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM runs r WHERE r.id = p_run AND r.lease_holder = p_holder AND r.lease_epoch = p_epoch AND r.lease_expires_at > now()
  ) THEN
    RETURN QUERY SELECT 'lease_lost'::text, NULL::text, NULL::timestamptz, k;
    RETURN;
  END IF;
  -- One claim of a group at a time, its token checked in the same breath.
  PERFORM pg_advisory_xact_lock(hashtextextended(p_server || chr(10) || k, 0));
  SELECT * INTO c FROM claims cl WHERE cl.server = p_server AND cl.group_key = k;
  IF FOUND THEN
    IF c.claim_id = p_claim THEN
      RETURN QUERY SELECT 'claimed'::text, c.actor, c.claimed_at, k;
    ELSIF c.state = 'sending' AND c.expires_at > now() THEN
      RETURN QUERY SELECT 'held'::text, c.actor, c.claimed_at, k;
    ELSE
      RETURN QUERY SELECT 'unknown'::text, c.actor, c.claimed_at, k;
    END IF;
    RETURN;
  END IF;
  SELECT * INTO g FROM groups gr WHERE gr.server = p_server AND gr.group_id = k;
  IF FOUND AND g.token_sha256 IS NOT NULL AND g.token_sha256 <> p_sent_sha256 THEN
    IF g.rotated_by IS NOT NULL THEN
      RETURN QUERY SELECT 'stale'::text, g.rotated_by, g.rotated_at, k;
    ELSE
      RETURN QUERY SELECT 'changed'::text, g.changed_by, g.changed_at, k;
    END IF;
    RETURN;
  END IF;
  INSERT INTO claims (server, group_key, claim_id, state, actor, holder, host, run_id, run_epoch, sent_sha256, claimed_at, expires_at)
  VALUES (p_server, k, p_claim, 'sending', session_user, p_holder, left(p_host, 255), p_run, p_epoch, p_sent_sha256, now(), now() + p_ttl_ms * interval '1 millisecond');
  RETURN QUERY SELECT 'claimed'::text, session_user::text, now(), k;
END
$$;

-- A claim whose rotation was never sent (the local journal refused it): only its own operator
-- may give it back, and only while it is still 'sending'.
CREATE FUNCTION embed_console.release_claim(p_claim uuid)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
BEGIN
  DELETE FROM claims WHERE claim_id = p_claim AND actor = session_user AND state = 'sending';
  RETURN FOUND;
END
$$;

-- Publishes calls from a machine's outbox: each is written once whatever the retries (by its id);
-- only a call first recorded as unknown may be told again, once, by its own operator, with its
-- real outcome. A call's effects (the catalog row, its rotation claim) are applied when its row is
-- written. The actor is the session's login role. Answers how many rows were written.
CREATE FUNCTION embed_console.record_calls(p_events jsonb)
RETURNS int LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
DECLARE
  e jsonb;
  gr jsonb;
  written int := 0;
  n int;
  called timestamptz;
  event_id uuid;
BEGIN
  IF jsonb_typeof(p_events) <> 'array' THEN
    RAISE EXCEPTION 'record_calls takes a JSON array of events' USING ERRCODE = '22023';
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('embed_console.change_seq', 0));
  FOR e IN SELECT value FROM jsonb_array_elements(p_events) LOOP
    event_id := (e->>'id')::uuid;
    IF e->>'kind' = 'settled' THEN
      UPDATE activity a SET settled_outcome = e->>'outcome', settled_at = (e->>'at')::timestamptz
       WHERE a.id = event_id AND a.actor = session_user AND a.outcome = 'unknown' AND a.settled_outcome IS NULL;
      GET DIAGNOSTICS n = ROW_COUNT;
      written := written + n;
      -- A rotation that did happen, learned later: the group was rotated by its actor, then.
      IF n = 1 AND e->>'outcome' = 'rotated' THEN
        UPDATE groups g SET rotated_by = a.actor, rotated_at = a.called_at, change_seq = nextval('change_seq')
          FROM activity a
         WHERE a.id = event_id AND g.server = a.server AND g.group_id = a.group_id AND (g.rotated_at IS NULL OR g.rotated_at < a.called_at);
      END IF;
      CONTINUE;
    END IF;
    IF e->>'kind' IS DISTINCT FROM 'call' THEN
      RAISE EXCEPTION 'unknown event kind %', e->>'kind' USING ERRCODE = '22023';
    END IF;
    called := (e->>'calledAt')::timestamptz;
    INSERT INTO activity AS a (id, actor, recorded_at, called_at, server, profile_name, operation, group_id, outcome,
                               http_status, error_code, message, duration_ms, token_last4)
    VALUES (event_id, session_user, now(), called, e->>'server', left(e->>'profileName', 200), e->>'operation', left(e->>'groupId', 500),
            e->>'outcome', (e->>'httpStatus')::int, left(e->>'errorCode', 100), left(e->>'message', 2000),
            greatest(0, (e->>'durationMs')::float8), e->>'tokenLast4')
    ON CONFLICT ON CONSTRAINT activity_pkey DO UPDATE SET
      outcome = excluded.outcome, http_status = excluded.http_status, error_code = excluded.error_code,
      message = excluded.message, duration_ms = excluded.duration_ms, token_last4 = excluded.token_last4, recorded_at = excluded.recorded_at
      WHERE a.outcome = 'unknown' AND excluded.outcome <> 'unknown' AND a.actor = session_user AND a.settled_outcome IS NULL;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN CONTINUE; END IF;
    written := written + 1;

    IF e->>'operation' = 'rotateToken' THEN
      IF e->>'outcome' = 'unknown' THEN
        UPDATE claims SET state = 'unknown' WHERE claim_id = event_id;
      ELSE
        DELETE FROM claims WHERE claim_id = event_id;
      END IF;
    END IF;

    gr := e->'group';
    IF e->>'outcome' = 'success' AND gr IS NOT NULL AND jsonb_typeof(gr) = 'object' THEN
      INSERT INTO groups AS g (server, group_id, name, environment_tag, team_id, properties, mapping, token_last4, token_sha256, token_seen_at,
                               changed_by, changed_at, rotated_by, rotated_at, change_seq)
      VALUES (e->>'server', e->>'groupId', gr->>'name', gr->>'environmentTag', (gr->>'teamId')::bigint, gr->'properties', gr->'mapping',
              gr->>'tokenLast4', gr->>'tokenSha256', CASE WHEN gr ? 'tokenSha256' THEN called END,
              session_user, called,
              CASE WHEN e->>'operation' = 'rotateToken' THEN session_user END,
              CASE WHEN e->>'operation' = 'rotateToken' THEN called END,
              nextval('change_seq'))
      ON CONFLICT (server, group_id) DO UPDATE SET
        name = coalesce(excluded.name, g.name),
        environment_tag = coalesce(excluded.environment_tag, g.environment_tag),
        team_id = coalesce(excluded.team_id, g.team_id),
        properties = CASE WHEN gr ? 'properties' THEN excluded.properties ELSE g.properties END,
        mapping = coalesce(excluded.mapping, g.mapping),
        token_last4 = CASE WHEN e->>'operation' = 'rotateToken' OR g.token_seen_at IS NULL OR excluded.token_seen_at >= g.token_seen_at
                           THEN coalesce(excluded.token_last4, g.token_last4) ELSE g.token_last4 END,
        token_sha256 = CASE WHEN e->>'operation' = 'rotateToken' OR g.token_seen_at IS NULL OR excluded.token_seen_at >= g.token_seen_at
                            THEN coalesce(excluded.token_sha256, g.token_sha256) ELSE g.token_sha256 END,
        token_seen_at = greatest(g.token_seen_at, excluded.token_seen_at),
        changed_by = CASE WHEN excluded.changed_at >= g.changed_at THEN excluded.changed_by ELSE g.changed_by END,
        changed_at = greatest(g.changed_at, excluded.changed_at),
        rotated_by = coalesce(excluded.rotated_by, g.rotated_by),
        rotated_at = coalesce(excluded.rotated_at, g.rotated_at),
        change_seq = excluded.change_seq;
      -- A fetch of an existing group gives the server's current token: rotations left unknown
      -- before it are settled by it (the next claim compares with this token).
      IF e->>'operation' = 'getOrCreate' AND (e->>'newUserGroup')::boolean IS NOT TRUE THEN
        DELETE FROM claims cl WHERE cl.server = e->>'server' AND cl.group_key = e->>'groupId'
           AND (cl.state = 'unknown' OR cl.expires_at <= now()) AND cl.claimed_at <= called;
      END IF;
    END IF;
  END LOOP;
  RETURN written;
END
$$;

-- Shared profiles are the admin's: connection settings only, never a token.
CREATE FUNCTION embed_console.upsert_profile(p_id uuid, p_name text, p_base_url text, p_timeout_seconds int, p_environment_label text,
                                             p_environment_kind text, p_deleted boolean)
RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
DECLARE
  seq bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('embed_console.change_seq', 0));
  seq := nextval('change_seq');
  INSERT INTO profiles AS p (id, name, base_url, timeout_seconds, environment_label, environment_kind, deleted, updated_by, updated_at, change_seq)
  VALUES (p_id, p_name, p_base_url, p_timeout_seconds, coalesce(p_environment_label, ''), p_environment_kind, p_deleted, session_user, now(), seq)
  ON CONFLICT (id) DO UPDATE SET
    name = excluded.name, base_url = excluded.base_url, timeout_seconds = excluded.timeout_seconds,
    environment_label = excluded.environment_label, environment_kind = excluded.environment_kind, deleted = excluded.deleted,
    updated_by = excluded.updated_by, updated_at = excluded.updated_at, change_seq = excluded.change_seq;
  RETURN seq;
END
$$;

RESET ROLE;

-- Reading: operators see every table; writing goes through the functions only.
GRANT SELECT ON ALL TABLES IN SCHEMA embed_console TO embed_console_operator;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA embed_console FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
  embed_console.acquire_run(text, text, text, int, text, text, int),
  embed_console.renew_run(text, text, bigint, int),
  embed_console.release_run(text, text, bigint),
  embed_console.claim_group(text, text, uuid, text, text, text, text, bigint, int),
  embed_console.release_claim(uuid),
  embed_console.record_calls(jsonb)
TO embed_console_operator;
GRANT EXECUTE ON FUNCTION embed_console.upsert_profile(uuid, text, text, int, text, text, boolean) TO embed_console_admin;
