-- Embed Console team schema, version 2: no operator can rewrite, silence or stall another's
-- record, and one team's roles reach no other team's database.
--
--   * Roles per team database. Version 1's roles were cluster-wide (embed_console_owner,
--     _operator, _admin): two teams on one cluster shared them, so one team's operator could
--     write the other's audit log and its admin could become the other's owner. This database
--     gets roles of its own, named after it (embed_console.team_roles says which), owning and
--     reaching only it; only they may CONNECT. Operators of version 1 are carried over; the
--     cluster-wide roles lose every privilege here, and are dropped once no database uses them.
--   * Ownership everywhere. A claim, a run's lease, an audit row and its settlement are their
--     operator's: every function checks session_user, an id that is another operator's raises
--     (never skips), and claim ids (the ids of the audit rows that will settle them) are not
--     readable by operators.
--   * Values checked one by one, with a sentence: an event the database will not store fails
--     alone (SQLSTATE EC001), so the publisher parks it and the rest go on.
--   * A token's fingerprint moves forward only: a rotation replaces the token it rotated, a
--     token once rotated away is never current again (retired_tokens), and only an observation
--     that nothing shows to be older falls back on time, the server's clock bounding the client's.
--   * No global lock: changes are pulled by (transaction id, change number), up to the oldest
--     transaction still running, so publishers no longer wait for each other.
--   * Indexes for every filter of the Team view, and the actor list from a small table.

CREATE TABLE embed_console.team_roles (
  kind text PRIMARY KEY CHECK (kind IN ('owner', 'operator', 'admin')),
  role_name text NOT NULL UNIQUE
);

DO $roles$
DECLARE
  db text := current_database();
  -- A role name has at most 63 bytes: "embed_console_" + base + "_operator" leaves 40 for the base.
  base text := CASE WHEN db ~ '^[a-z0-9_]{1,40}$' THEN db
                    ELSE left(regexp_replace(lower(db), '[^a-z0-9_]+', '_', 'g'), 24) || '_' || left(md5(db), 8) END;
  kind text;
  candidate text;
  role_oid oid;
  elsewhere text;
  legacy_elsewhere boolean := false;
  member record;
  owner_role text;
  operator_role text;
  admin_role text;
BEGIN
  -- Only the database's owner (or a superuser) may decide who connects to it.
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, (SELECT datdba FROM pg_database WHERE datname = db), 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'EC000', MESSAGE = format(
      'Only the owner of the database %s may migrate it to schema version 2 (it decides who may connect): run `ALTER DATABASE %s OWNER TO %s` as a superuser, then migrate again. Nothing was changed.',
      quote_ident(db), quote_ident(db), quote_ident(current_user));
  END IF;

  FOREACH kind IN ARRAY ARRAY['owner', 'operator', 'admin'] LOOP
    candidate := format('embed_console_%s_%s', base, kind);
    SELECT oid INTO role_oid FROM pg_roles WHERE rolname = candidate;
    IF FOUND THEN
      IF (SELECT rolcanlogin FROM pg_roles WHERE oid = role_oid) THEN
        RAISE EXCEPTION USING ERRCODE = 'EC000', MESSAGE = format(
          'A login role named %s exists already on this cluster, and Embed Console would make it a team role of %s: rename or drop it, then migrate again. Nothing was changed.',
          candidate, quote_ident(db));
      END IF;
      SELECT string_agg(DISTINCT d.datname, ', ') INTO elsewhere
        FROM pg_shdepend s JOIN pg_database d ON d.oid = s.dbid
       WHERE s.refclassid = 'pg_authid'::regclass AND s.refobjid = role_oid AND d.datname <> db;
      IF elsewhere IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EC000', MESSAGE = format(
          'The role %s already serves another database on this cluster (%s): one team''s roles never reach another team. Rename this database (or that one), then migrate again. Nothing was changed.',
          candidate, elsewhere);
      END IF;
    ELSE
      EXECUTE format('CREATE ROLE %I NOLOGIN', candidate);
    END IF;
    INSERT INTO embed_console.team_roles (kind, role_name) VALUES (kind, candidate);
  END LOOP;
  SELECT role_name INTO owner_role FROM embed_console.team_roles WHERE team_roles.kind = 'owner';
  SELECT role_name INTO operator_role FROM embed_console.team_roles WHERE team_roles.kind = 'operator';
  SELECT role_name INTO admin_role FROM embed_console.team_roles WHERE team_roles.kind = 'admin';

  EXECUTE format('GRANT %I TO %I', operator_role, admin_role);
  -- The admin who migrates administers the team: it may hand out these roles (add-operator).
  EXECUTE format('GRANT %I, %I, %I TO CURRENT_USER WITH ADMIN OPTION', owner_role, operator_role, admin_role);

  -- Version 1's operators and admins become this team's. When the cluster-wide roles serve other
  -- databases too, their members may be other teams': only those who wrote here are carried over.
  -- The first upgrade that finds them shared says so on the role (a comment is the cluster's),
  -- for the upgrades after it: by then the others no longer show in pg_shdepend.
  IF to_regrole('embed_console_operator') IS NOT NULL THEN
    legacy_elsewhere := EXISTS (
      SELECT FROM pg_shdepend s JOIN pg_database d ON d.oid = s.dbid
       WHERE s.refclassid = 'pg_authid'::regclass AND s.deptype = 'o' AND d.datname <> db
         AND s.refobjid IN (SELECT oid FROM pg_roles WHERE rolname IN ('embed_console_owner', 'embed_console_operator', 'embed_console_admin')));
    IF legacy_elsewhere THEN
      COMMENT ON ROLE embed_console_operator IS 'Embed Console schema version 1: shared by several team databases. Each upgrade carries over only the operators who wrote in it.';
    ELSE
      legacy_elsewhere := coalesce(shobj_description(to_regrole('embed_console_operator'), 'pg_authid'), '') LIKE '%shared by several team databases%';
    END IF;
    FOR member IN
      SELECT r.rolname AS login, g.rolname AS legacy
        FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member JOIN pg_roles g ON g.oid = m.roleid
       WHERE g.rolname IN ('embed_console_operator', 'embed_console_admin') AND r.rolcanlogin
       ORDER BY 1
    LOOP
      IF legacy_elsewhere AND member.login <> current_user AND NOT (
           EXISTS (SELECT FROM embed_console.activity a WHERE a.actor = member.login)
        OR EXISTS (SELECT FROM embed_console.runs r WHERE r.lease_actor = member.login)
        OR EXISTS (SELECT FROM embed_console.claims c WHERE c.actor = member.login)
        OR EXISTS (SELECT FROM embed_console.profiles p WHERE p.updated_by = member.login)) THEN
        RAISE NOTICE '%', format(
          'Not carried over: %s (an Embed Console operator of this cluster who never wrote in %s, and may be another team''s). If they are this team''s, run `embed-console team add-operator %s --reset-password`.',
          member.login, db, member.login);
        CONTINUE;
      END IF;
      EXECUTE format('GRANT %I TO %I', CASE WHEN member.legacy = 'embed_console_admin' THEN admin_role ELSE operator_role END, member.login);
    END LOOP;
  END IF;

  -- Only this team's roles (and the database's owner) connect here.
  EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', db);
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I, %I, %I', db, owner_role, operator_role, admin_role);
END
$roles$;

-- Run leases are their operator's: a run's row is keyed by its actor and id, so nobody else's
-- call can take, renew, free or fence it. lease_renewed_at tells a live run from one whose
-- process stopped renewing (the Team screen lists only the live ones).
ALTER TABLE embed_console.runs DROP CONSTRAINT runs_pkey;
UPDATE embed_console.runs SET lease_actor = '' WHERE lease_actor IS NULL;
ALTER TABLE embed_console.runs ALTER COLUMN lease_actor SET NOT NULL;
ALTER TABLE embed_console.runs ADD PRIMARY KEY (lease_actor, id);
ALTER TABLE embed_console.runs ADD COLUMN lease_renewed_at timestamptz;
UPDATE embed_console.runs SET lease_renewed_at = lease_since;

-- The fingerprint a rotation sent (backed by its operator's own claim): the token it retired.
ALTER TABLE embed_console.activity ADD COLUMN sent_sha256 text CHECK (sent_sha256 ~ '^[0-9a-f]{64}$');
DROP INDEX embed_console.activity_by_group;
CREATE INDEX activity_by_group ON embed_console.activity (group_id, seq);
CREATE INDEX activity_by_operation ON embed_console.activity (operation, seq);
CREATE INDEX activity_by_outcome ON embed_console.activity (outcome, seq);

-- Everyone who has written to the audit log: the Team view's actor filter, without a scan.
CREATE TABLE embed_console.actors (
  actor text PRIMARY KEY,
  first_seen timestamptz NOT NULL
);
INSERT INTO embed_console.actors (actor, first_seen) SELECT actor, min(recorded_at) FROM embed_console.activity GROUP BY actor;

-- Tokens rotated away, by fingerprint: never a group's current token again.
CREATE TABLE embed_console.retired_tokens (
  server text NOT NULL,
  group_id text NOT NULL,
  token_sha256 text NOT NULL CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
  retired_by text NOT NULL,
  -- When the rotation was made (its operator's clock, never later than the server's) and when it was recorded.
  retired_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL,
  PRIMARY KEY (server, group_id, token_sha256)
);

-- Changes are pulled by (change_xid, change_seq): the writing transaction's id, then the number
-- it took. A pull reads only transactions older than the oldest one still running, so a change
-- committed late is never skipped, with no lock between publishers.
ALTER TABLE embed_console.groups ADD COLUMN change_xid bigint NOT NULL DEFAULT 0;
ALTER TABLE embed_console.profiles ADD COLUMN change_xid bigint NOT NULL DEFAULT 0;
DROP INDEX embed_console.groups_by_change;
DROP INDEX embed_console.profiles_by_change;
CREATE INDEX groups_by_change ON embed_console.groups (change_xid, change_seq);
CREATE INDEX profiles_by_change ON embed_console.profiles (change_xid, change_seq);

DROP FUNCTION embed_console.acquire_run(text, text, text, int, text, text, int);
DROP FUNCTION embed_console.renew_run(text, text, bigint, int);
DROP FUNCTION embed_console.release_run(text, text, bigint);
DROP FUNCTION embed_console.claim_group(text, text, uuid, text, text, text, text, bigint, int);
DROP FUNCTION embed_console.release_claim(uuid);
DROP FUNCTION embed_console.record_calls(jsonb);
DROP FUNCTION embed_console.upsert_profile(uuid, text, text, int, text, text, boolean);

-- A client asks for a lease's or a claim's time to live; the database bounds it, so nobody can
-- hold a run or a group for longer than a call may take.
CREATE FUNCTION embed_console.bounded_ttl(p_ttl_ms int, p_max_ms int) RETURNS interval
LANGUAGE sql IMMUTABLE SET search_path = embed_console, pg_temp AS $$
  SELECT least(greatest(coalesce(p_ttl_ms, 0), 1000), p_max_ms) * interval '1 millisecond';
$$;

-- Takes a run's lease for p_holder (a new epoch) when it is free, expired or already theirs.
-- Answers the epoch, or a null epoch with who holds it. Runs are per operator: another
-- operator's run of the same id is another row.
CREATE FUNCTION embed_console.acquire_run(p_run text, p_label text, p_holder text, p_pid int, p_host text, p_client text, p_ttl_ms int)
RETURNS TABLE (epoch bigint, holder text, actor text, pid int, host text, client text, since timestamptz, expires_at timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
#variable_conflict use_column
BEGIN
  IF p_run IS NULL OR char_length(p_run) > 200 OR p_holder IS NULL OR char_length(p_holder) > 200 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'A run and its holder are named by ids of at most 200 characters.';
  END IF;
  RETURN QUERY
    INSERT INTO runs AS r (id, label, lease_holder, lease_epoch, lease_actor, lease_pid, lease_host, lease_client, lease_since,
                           lease_renewed_at, lease_expires_at)
    VALUES (p_run, left(p_label, 300), p_holder, 1, session_user, p_pid, left(p_host, 255), left(p_client, 20), now(), now(),
            now() + bounded_ttl(p_ttl_ms, 300000))
    ON CONFLICT (lease_actor, id) DO UPDATE SET
      label = excluded.label, lease_holder = excluded.lease_holder, lease_epoch = r.lease_epoch + 1, lease_pid = excluded.lease_pid,
      lease_host = excluded.lease_host, lease_client = excluded.lease_client, lease_since = excluded.lease_since,
      lease_renewed_at = excluded.lease_renewed_at, lease_expires_at = excluded.lease_expires_at
      WHERE r.lease_holder IS NULL OR r.lease_holder = p_holder OR r.lease_expires_at <= now()
    RETURNING r.lease_epoch, r.lease_holder, r.lease_actor, r.lease_pid, r.lease_host, r.lease_client, r.lease_since, r.lease_expires_at;
  IF FOUND THEN RETURN; END IF;
  RETURN QUERY
    SELECT NULL::bigint, r.lease_holder, r.lease_actor, r.lease_pid, r.lease_host, r.lease_client, r.lease_since, r.lease_expires_at
      FROM runs r WHERE r.id = p_run AND r.lease_actor = session_user;
END
$$;

CREATE FUNCTION embed_console.renew_run(p_run text, p_holder text, p_epoch bigint, p_ttl_ms int)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
BEGIN
  UPDATE runs SET lease_expires_at = now() + bounded_ttl(p_ttl_ms, 300000), lease_renewed_at = now()
   WHERE id = p_run AND lease_actor = session_user AND lease_holder = p_holder AND lease_epoch = p_epoch;
  RETURN FOUND;
END
$$;

CREATE FUNCTION embed_console.release_run(p_run text, p_holder text, p_epoch bigint)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
BEGIN
  UPDATE runs SET lease_holder = NULL, lease_expires_at = NULL
   WHERE id = p_run AND lease_actor = session_user AND lease_holder = p_holder AND lease_epoch = p_epoch;
  RETURN FOUND;
END
$$;

-- Claims a group before one of its tokens is rotated. outcome:
--   claimed     the caller may journal and send the rotation
--   held        another rotation of the group is in flight (actor, since)
--   unknown     an earlier rotation (actor, at) may have happened: fetch the group first
--   stale       the token sent is not the group's current one: actor rotated it at `at`
--   changed     the same, and no rotation here made it so (actor fetched the other token at `at`)
--   lease_lost  a run's row, and the run's lease is no longer the caller's
-- When the claim in the way is the caller's own, own_claim, own_run and own_epoch say which: a
-- run's row claimed under an earlier lease of the same run, by a process that died before it
-- journaled the rotation, is released by the run that took over (its journal shows it was never sent).
CREATE FUNCTION embed_console.claim_group(p_server text, p_group text, p_claim uuid, p_sent_sha256 text, p_holder text, p_host text,
                                          p_run text, p_epoch bigint, p_ttl_ms int)
RETURNS TABLE (outcome text, actor text, at timestamptz, group_key text, own_claim uuid, own_run text, own_epoch bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
#variable_conflict use_column
DECLARE
  k text := p_group;
  c claims%ROWTYPE;
  g groups%ROWTYPE;
  r retired_tokens%ROWTYPE;
BEGIN
  IF p_sent_sha256 IS NULL OR p_sent_sha256 !~ '^[0-9a-f]{64}$' THEN
    RAISE EXCEPTION 'claim_group takes the SHA-256 fingerprint of the token sent, never the token' USING ERRCODE = '22023';
  END IF;
  IF p_server IS NULL OR char_length(p_server) > 2048 OR char_length(p_group) > 2000 OR p_claim IS NULL
     OR p_holder IS NULL OR char_length(p_holder) > 200 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'A claim names its server (at most 2048 characters), its group (at most 2000), its id and its holder.';
  END IF;
  IF k IS NULL THEN
    SELECT gr.group_id INTO k FROM groups gr WHERE gr.server = p_server AND gr.token_sha256 = p_sent_sha256 LIMIT 1;
    k := coalesce(k, 'sha256:' || p_sent_sha256);
  END IF;
  IF p_run IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM runs ru WHERE ru.id = p_run AND ru.lease_actor = session_user AND ru.lease_holder = p_holder AND ru.lease_epoch = p_epoch
       AND ru.lease_expires_at > now()
  ) THEN
    RETURN QUERY SELECT 'lease_lost'::text, NULL::text, NULL::timestamptz, k, NULL::uuid, NULL::text, NULL::bigint;
    RETURN;
  END IF;
  -- One claim of a group at a time, its token checked in the same breath.
  PERFORM pg_advisory_xact_lock(hashtextextended(p_server || chr(10) || k, 0));
  SELECT * INTO c FROM claims cl WHERE cl.server = p_server AND cl.group_key = k;
  IF FOUND THEN
    IF c.claim_id = p_claim AND c.actor = session_user THEN
      RETURN QUERY SELECT 'claimed'::text, c.actor, c.claimed_at, k, NULL::uuid, NULL::text, NULL::bigint;
    ELSE
      RETURN QUERY SELECT CASE WHEN c.state = 'sending' AND c.expires_at > now() THEN 'held' ELSE 'unknown' END, c.actor, c.claimed_at, k,
                          CASE WHEN c.actor = session_user THEN c.claim_id END, CASE WHEN c.actor = session_user THEN c.run_id END,
                          CASE WHEN c.actor = session_user THEN c.run_epoch END;
    END IF;
    RETURN;
  END IF;
  SELECT * INTO r FROM retired_tokens rt WHERE rt.server = p_server AND rt.group_id = k AND rt.token_sha256 = p_sent_sha256;
  IF FOUND THEN
    RETURN QUERY SELECT 'stale'::text, r.retired_by, r.retired_at, k, NULL::uuid, NULL::text, NULL::bigint;
    RETURN;
  END IF;
  SELECT * INTO g FROM groups gr WHERE gr.server = p_server AND gr.group_id = k;
  IF FOUND AND g.token_sha256 IS NOT NULL AND g.token_sha256 <> p_sent_sha256 THEN
    IF g.rotated_by IS NOT NULL THEN
      RETURN QUERY SELECT 'stale'::text, g.rotated_by, g.rotated_at, k, NULL::uuid, NULL::text, NULL::bigint;
    ELSE
      RETURN QUERY SELECT 'changed'::text, g.changed_by, g.changed_at, k, NULL::uuid, NULL::text, NULL::bigint;
    END IF;
    RETURN;
  END IF;
  INSERT INTO claims (server, group_key, claim_id, state, actor, holder, host, run_id, run_epoch, sent_sha256, claimed_at, expires_at)
  VALUES (p_server, k, p_claim, 'sending', session_user, p_holder, left(p_host, 255), p_run, p_epoch, p_sent_sha256, now(),
          now() + bounded_ttl(p_ttl_ms, 600000));
  RETURN QUERY SELECT 'claimed'::text, session_user::text, now(), k, NULL::uuid, NULL::text, NULL::bigint;
END
$$;

-- A claim whose rotation was never sent (the local journal refused it, or has no trace of it):
-- only its own operator may give it back, and only while it is still 'sending'.
CREATE FUNCTION embed_console.release_claim(p_claim uuid)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
BEGIN
  DELETE FROM claims WHERE claim_id = p_claim AND actor = session_user AND state = 'sending';
  RETURN FOUND;
END
$$;

-- An event this database will not store, said as a sentence: it fails alone (the publisher
-- sends events in halves until the one is found, parks it, and the rest go on).
CREATE FUNCTION embed_console.refuse_event(p_why text) RETURNS void
LANGUAGE plpgsql SET search_path = embed_console, pg_temp AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'EC001', MESSAGE = 'The team database refused this call’s record: ' || p_why;
END
$$;

CREATE FUNCTION embed_console.event_uuid(p_event jsonb, p_key text) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE SET search_path = embed_console, pg_temp AS $$
BEGIN
  IF jsonb_typeof(p_event -> p_key) IS DISTINCT FROM 'string'
     OR (p_event ->> p_key) !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    PERFORM refuse_event(format('its %s is not a UUID.', p_key));
  END IF;
  RETURN (p_event ->> p_key)::uuid;
END
$$;

-- A time as ISO 8601 with its offset, never later than the server's clock: a client's clock may
-- backdate its own call, never postdate it past others'.
CREATE FUNCTION embed_console.event_time(p_event jsonb, p_key text) RETURNS timestamptz
LANGUAGE plpgsql STABLE SET search_path = embed_console, pg_temp AS $$
DECLARE
  t timestamptz;
BEGIN
  IF jsonb_typeof(p_event -> p_key) IS DISTINCT FROM 'string'
     OR (p_event ->> p_key) !~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:?\d\d)$' THEN
    PERFORM refuse_event(format('its %s is not a time (ISO 8601 with an offset).', p_key));
  END IF;
  BEGIN
    t := (p_event ->> p_key)::timestamptz;
  EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format OR invalid_time_zone_displacement_value THEN
    PERFORM refuse_event(format('its %s (%s) is not a time that exists.', p_key, p_event ->> p_key));
  END;
  RETURN least(t, now());
END
$$;

-- A whole number within [p_min, p_max], or null when absent: any JSON number is checked as a
-- numeric first, so no value is cast where it cannot fit.
CREATE FUNCTION embed_console.event_integer(p_event jsonb, p_key text, p_min numeric, p_max numeric) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE SET search_path = embed_console, pg_temp AS $$
DECLARE
  n numeric;
BEGIN
  IF p_event -> p_key IS NULL OR jsonb_typeof(p_event -> p_key) = 'null' THEN RETURN NULL; END IF;
  IF jsonb_typeof(p_event -> p_key) <> 'number' THEN
    PERFORM refuse_event(format('its %s is not a number.', p_key));
  END IF;
  n := (p_event ->> p_key)::numeric;
  IF n <> trunc(n) OR n < p_min OR n > p_max THEN
    PERFORM refuse_event(format('its %s (%s) is not a whole number from %s to %s.', p_key, left(p_event ->> p_key, 40), p_min, p_max));
  END IF;
  RETURN n;
END
$$;

-- A string of at most p_max characters (longer is refused when p_cut is false, else cut), or null.
CREATE FUNCTION embed_console.event_text(p_event jsonb, p_key text, p_max int, p_cut boolean) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = embed_console, pg_temp AS $$
BEGIN
  IF p_event -> p_key IS NULL OR jsonb_typeof(p_event -> p_key) = 'null' THEN RETURN NULL; END IF;
  IF jsonb_typeof(p_event -> p_key) <> 'string' THEN
    PERFORM refuse_event(format('its %s is not a string.', p_key));
  END IF;
  IF char_length(p_event ->> p_key) > p_max THEN
    IF p_cut THEN RETURN left(p_event ->> p_key, p_max); END IF;
    PERFORM refuse_event(format('its %s is longer than %s characters.', p_key, p_max));
  END IF;
  RETURN p_event ->> p_key;
END
$$;

CREATE FUNCTION embed_console.event_fingerprint(p_event jsonb, p_key text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = embed_console, pg_temp AS $$
BEGIN
  IF p_event -> p_key IS NULL OR jsonb_typeof(p_event -> p_key) = 'null' THEN RETURN NULL; END IF;
  IF jsonb_typeof(p_event -> p_key) <> 'string' OR (p_event ->> p_key) !~ '^[0-9a-f]{64}$' THEN
    PERFORM refuse_event(format('its %s is not a SHA-256 fingerprint.', p_key));
  END IF;
  RETURN p_event ->> p_key;
END
$$;

-- What a successful call tells the catalog of its group. The fingerprint moves forward only:
--   * a token rotated away (retired_tokens) is never current again, unless a fetch made well
--     after that rotation was recorded still finds it (the rotation was never real);
--   * a token the catalog holds that was rotated away gives way to any other: so a rotation's new
--     token replaces the token it rotated (p_rotated_from, retired first), whatever the clocks;
--   * otherwise, the later observation wins (its time bounded by the server's clock).
-- Name, properties and the rest follow the newest call; rotated_by and rotated_at the rotation
-- that made the current token.
CREATE FUNCTION embed_console.apply_group(p_server text, p_group text, p_fields jsonb, p_operation text, p_called timestamptz,
                                          p_seen timestamptz, p_rotated_from text)
RETURNS void LANGUAGE plpgsql SET search_path = embed_console, pg_temp AS $$
DECLARE
  g groups%ROWTYPE;
  v_fp text := event_fingerprint(p_fields, 'tokenSha256');
  v_last4 text := event_text(p_fields, 'tokenLast4', 4, false);
  v_name text := event_text(p_fields, 'name', 1000, true);
  v_tag text := event_text(p_fields, 'environmentTag', 100, true);
  v_team bigint := event_integer(p_fields, 'teamId', -9223372036854775808, 9223372036854775807)::bigint;
  retired retired_tokens%ROWTYPE;
  is_retired boolean;
  take_token boolean;
  newer boolean;
BEGIN
  IF p_rotated_from IS NOT NULL THEN
    INSERT INTO retired_tokens (server, group_id, token_sha256, retired_by, retired_at, recorded_at)
    VALUES (p_server, p_group, p_rotated_from, session_user, p_called, now()) ON CONFLICT DO NOTHING;
  END IF;
  SELECT * INTO retired FROM retired_tokens rt WHERE rt.server = p_server AND rt.group_id = p_group AND rt.token_sha256 = v_fp;
  is_retired := FOUND;
  IF is_retired AND p_rotated_from IS NULL AND p_called > retired.recorded_at + interval '5 minutes' THEN
    -- The server gave this token long after its rotation was recorded: that rotation never happened.
    DELETE FROM retired_tokens rt WHERE rt.server = p_server AND rt.group_id = p_group AND rt.token_sha256 = v_fp;
    is_retired := false;
  END IF;
  LOOP
    SELECT * INTO g FROM groups gr WHERE gr.server = p_server AND gr.group_id = p_group FOR UPDATE;
    IF FOUND THEN EXIT; END IF;
    INSERT INTO groups (server, group_id, name, environment_tag, team_id, properties, mapping, token_last4, token_sha256, token_seen_at,
                        changed_by, changed_at, rotated_by, rotated_at, change_seq, change_xid)
    VALUES (p_server, p_group, v_name, v_tag, v_team, p_fields -> 'properties', p_fields -> 'mapping',
            CASE WHEN NOT is_retired THEN v_last4 END, CASE WHEN NOT is_retired THEN v_fp END, CASE WHEN NOT is_retired AND v_fp IS NOT NULL THEN p_seen END,
            session_user, p_called,
            CASE WHEN p_operation = 'rotateToken' AND NOT is_retired THEN session_user END,
            CASE WHEN p_operation = 'rotateToken' AND NOT is_retired THEN p_called END,
            nextval('change_seq'), txid_current())
    ON CONFLICT (server, group_id) DO NOTHING;
    IF FOUND THEN RETURN; END IF;
    -- Another publisher wrote the group meanwhile: update it as found.
  END LOOP;
  take_token := CASE
    WHEN v_fp IS NULL OR is_retired THEN false
    WHEN g.token_sha256 IS NULL OR g.token_sha256 = v_fp THEN true
    WHEN EXISTS (SELECT FROM retired_tokens rt WHERE rt.server = p_server AND rt.group_id = p_group AND rt.token_sha256 = g.token_sha256) THEN true
    ELSE g.token_seen_at IS NULL OR p_seen >= g.token_seen_at
  END;
  newer := p_called >= g.changed_at;
  UPDATE groups gr SET
    name = CASE WHEN newer AND p_fields ? 'name' THEN v_name ELSE g.name END,
    environment_tag = CASE WHEN newer AND v_tag IS NOT NULL THEN v_tag ELSE g.environment_tag END,
    team_id = CASE WHEN newer AND v_team IS NOT NULL THEN v_team ELSE g.team_id END,
    properties = CASE WHEN newer AND p_fields ? 'properties' THEN p_fields -> 'properties' ELSE g.properties END,
    mapping = CASE WHEN newer AND p_fields ? 'mapping' THEN p_fields -> 'mapping' ELSE g.mapping END,
    token_last4 = CASE WHEN take_token THEN coalesce(v_last4, g.token_last4) ELSE g.token_last4 END,
    token_sha256 = CASE WHEN take_token THEN v_fp ELSE g.token_sha256 END,
    token_seen_at = CASE WHEN take_token THEN greatest(p_seen, g.token_seen_at) ELSE g.token_seen_at END,
    changed_by = CASE WHEN newer THEN session_user ELSE g.changed_by END,
    changed_at = greatest(g.changed_at, p_called),
    rotated_by = CASE WHEN take_token AND p_operation = 'rotateToken' THEN session_user ELSE g.rotated_by END,
    rotated_at = CASE WHEN take_token AND p_operation = 'rotateToken' THEN p_called ELSE g.rotated_at END,
    change_seq = nextval('change_seq'),
    change_xid = txid_current()
  WHERE gr.server = p_server AND gr.group_id = p_group;
END
$$;

-- Publishes calls from a machine's outbox: each is written once whatever the retries (by its id);
-- only a call first recorded as unknown may be told again, once, by its own operator, with its
-- real outcome. An id that is another operator's (a row, a claim) raises. A call's effects (the
-- catalog row, its rotation claim) are applied when its row is written; a rotation retires the
-- token it sent only when its operator's own claim backs it. The actor is the session's login
-- role. Answers how many rows were written.
CREATE FUNCTION embed_console.record_calls(p_events jsonb)
RETURNS int LANGUAGE plpgsql SECURITY DEFINER SET search_path = embed_console, pg_temp AS $$
DECLARE
  e jsonb;
  written int := 0;
  n int;
  event_id uuid;
  kind text;
  op text;
  result text;
  srv text;
  gid text;
  called timestamptz;
  duration float8;
  sent text;
  own claims%ROWTYPE;
  owned boolean;
  other text;
  rec activity%ROWTYPE;
BEGIN
  IF p_events IS NULL OR jsonb_typeof(p_events) <> 'array' THEN
    RAISE EXCEPTION 'record_calls takes a JSON array of events' USING ERRCODE = '22023';
  END IF;
  IF jsonb_array_length(p_events) > 1000 THEN
    RAISE EXCEPTION 'record_calls takes at most 1000 events at a time' USING ERRCODE = '22023';
  END IF;
  INSERT INTO actors (actor, first_seen) VALUES (session_user, now()) ON CONFLICT DO NOTHING;
  FOR e IN SELECT value FROM jsonb_array_elements(p_events) LOOP
    IF jsonb_typeof(e) <> 'object' THEN PERFORM refuse_event('an event is a JSON object.'); END IF;
    event_id := event_uuid(e, 'id');
    kind := e ->> 'kind';
    -- An id is its operator's: another's row or claim is never written, settled or cleared from here.
    SELECT a.actor INTO other FROM activity a WHERE a.id = event_id AND a.actor <> session_user;
    IF FOUND THEN
      PERFORM refuse_event(format('its id is a call of %s in the audit log: an operator records only calls of their own.', other));
    END IF;
    SELECT cl.actor INTO other FROM claims cl WHERE cl.claim_id = event_id AND cl.actor <> session_user;
    IF FOUND THEN
      PERFORM refuse_event(format('its id is a rotation %s claimed: an operator records only calls of their own.', other));
    END IF;

    IF kind = 'settled' THEN
      result := e ->> 'outcome';
      IF result IS NULL OR result NOT IN ('rotated', 'not_rotated') THEN PERFORM refuse_event('a settlement is rotated or not_rotated.'); END IF;
      UPDATE activity a SET settled_outcome = result, settled_at = event_time(e, 'at')
       WHERE a.id = event_id AND a.actor = session_user AND a.outcome = 'unknown' AND a.settled_outcome IS NULL
      RETURNING * INTO rec;
      IF NOT FOUND THEN CONTINUE; END IF;
      written := written + 1;
      DELETE FROM claims cl WHERE cl.claim_id = event_id AND cl.actor = session_user;
      -- A rotation that did happen, learned later: the token it sent is retired; the group was rotated by its actor, then.
      IF result = 'rotated' THEN
        IF rec.sent_sha256 IS NOT NULL AND rec.group_id IS NOT NULL THEN
          INSERT INTO retired_tokens (server, group_id, token_sha256, retired_by, retired_at, recorded_at)
          VALUES (rec.server, rec.group_id, rec.sent_sha256, rec.actor, rec.called_at, now()) ON CONFLICT DO NOTHING;
        END IF;
        UPDATE groups g SET rotated_by = rec.actor, rotated_at = rec.called_at, change_seq = nextval('change_seq'), change_xid = txid_current()
         WHERE g.server = rec.server AND g.group_id = rec.group_id AND (g.rotated_at IS NULL OR g.rotated_at < rec.called_at);
      END IF;
      CONTINUE;
    END IF;
    IF kind IS DISTINCT FROM 'call' THEN
      PERFORM refuse_event(format('its kind (%s) is not one this schema knows: update Embed Console here, or the team database.', left(coalesce(kind, 'none'), 40)));
    END IF;

    op := e ->> 'operation';
    IF op IS NULL OR op NOT IN ('getOrCreate', 'update', 'rotateToken') THEN
      PERFORM refuse_event(format('its operation (%s) is not one this schema knows.', left(coalesce(op, 'none'), 40)));
    END IF;
    result := e ->> 'outcome';
    IF result IS NULL OR result NOT IN ('success', 'failure', 'unknown') THEN
      PERFORM refuse_event(format('its outcome (%s) is not success, failure or unknown.', left(coalesce(result, 'none'), 40)));
    END IF;
    srv := event_text(e, 'server', 2048, false);
    IF srv IS NULL OR srv !~ '^https?://' THEN PERFORM refuse_event('its server is not an http(s) address.'); END IF;
    gid := event_text(e, 'groupId', 2000, false);
    called := event_time(e, 'calledAt');
    IF jsonb_typeof(e -> 'durationMs') = 'number' THEN
      duration := least(greatest((e ->> 'durationMs')::numeric, 0), 86400000)::float8;
    ELSIF coalesce(jsonb_typeof(e -> 'durationMs'), 'null') = 'null' THEN
      duration := 0;
    ELSE
      PERFORM refuse_event('its durationMs is not a number.');
    END IF;
    IF jsonb_typeof(e -> 'newUserGroup') NOT IN ('boolean', 'null') THEN PERFORM refuse_event('its newUserGroup is not true or false.'); END IF;

    -- A rotation's own claim: the token it sent, and the rotation's right to retire it.
    owned := false;
    sent := NULL;
    IF op = 'rotateToken' THEN
      SELECT * INTO own FROM claims cl WHERE cl.claim_id = event_id AND cl.actor = session_user;
      IF FOUND THEN
        owned := true;
        sent := own.sent_sha256;
      END IF;
    END IF;

    INSERT INTO activity AS a (id, actor, recorded_at, called_at, server, profile_name, operation, group_id, outcome,
                               http_status, error_code, message, duration_ms, token_last4, sent_sha256)
    VALUES (event_id, session_user, now(), called, srv, coalesce(event_text(e, 'profileName', 200, true), ''), op, gid,
            result, event_integer(e, 'httpStatus', 0, 999)::int, event_text(e, 'errorCode', 100, true),
            event_text(e, 'message', 2000, true), duration, event_text(e, 'tokenLast4', 4, false), sent)
    ON CONFLICT ON CONSTRAINT activity_pkey DO UPDATE SET
      outcome = excluded.outcome, http_status = excluded.http_status, error_code = excluded.error_code,
      message = excluded.message, duration_ms = excluded.duration_ms, token_last4 = excluded.token_last4, recorded_at = excluded.recorded_at,
      sent_sha256 = coalesce(a.sent_sha256, excluded.sent_sha256)
      WHERE a.outcome = 'unknown' AND excluded.outcome <> 'unknown' AND a.actor = session_user AND a.settled_outcome IS NULL
    RETURNING * INTO rec;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
      -- Written already: a retry (nothing to do), or another operator's row written meanwhile.
      SELECT a.actor INTO other FROM activity a WHERE a.id = event_id AND a.actor <> session_user;
      IF FOUND THEN
        PERFORM refuse_event(format('its id is a call of %s in the audit log: an operator records only calls of their own.', other));
      END IF;
      CONTINUE;
    END IF;
    written := written + 1;

    IF op = 'rotateToken' THEN
      IF result = 'unknown' THEN
        UPDATE claims SET state = 'unknown' WHERE claim_id = event_id AND actor = session_user;
      ELSE
        DELETE FROM claims WHERE claim_id = event_id AND actor = session_user;
      END IF;
    END IF;

    IF result = 'success' AND jsonb_typeof(e -> 'group') = 'object' THEN
      IF gid IS NULL THEN PERFORM refuse_event('a call that answered a group names its groupId.'); END IF;
      PERFORM apply_group(srv, gid, e -> 'group', op, called, least(now(), called + duration * interval '1 millisecond'),
                          CASE WHEN op = 'rotateToken' THEN rec.sent_sha256 END);
      -- A fetch of an existing group gives the server's current token: rotations left unknown
      -- before it are settled by it (the next claim compares with this token).
      IF op = 'getOrCreate' AND (e ->> 'newUserGroup') IS DISTINCT FROM 'true' THEN
        DELETE FROM claims cl WHERE cl.server = srv AND cl.group_key = gid
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
  seq bigint := nextval('change_seq');
BEGIN
  IF p_base_url IS NULL OR p_base_url !~ '^https?://' OR char_length(p_base_url) > 2048 THEN
    RAISE EXCEPTION 'A shared profile’s base URL is an http(s) address of at most 2048 characters.' USING ERRCODE = '22023';
  END IF;
  INSERT INTO profiles AS p (id, name, base_url, timeout_seconds, environment_label, environment_kind, deleted, updated_by, updated_at,
                             change_seq, change_xid)
  VALUES (p_id, p_name, p_base_url, p_timeout_seconds, coalesce(p_environment_label, ''), p_environment_kind, p_deleted, session_user, now(),
          seq, txid_current())
  ON CONFLICT (id) DO UPDATE SET
    name = excluded.name, base_url = excluded.base_url, timeout_seconds = excluded.timeout_seconds,
    environment_label = excluded.environment_label, environment_kind = excluded.environment_kind, deleted = excluded.deleted,
    updated_by = excluded.updated_by, updated_at = excluded.updated_at, change_seq = excluded.change_seq, change_xid = excluded.change_xid;
  RETURN seq;
END
$$;

-- Everything to this team's owner; reading to its operators (claim ids and holders excepted);
-- writing only through the functions; nothing to PUBLIC or to version 1's cluster-wide roles.
DO $grants$
DECLARE
  owner_role text := (SELECT role_name FROM embed_console.team_roles WHERE kind = 'owner');
  operator_role text := (SELECT role_name FROM embed_console.team_roles WHERE kind = 'operator');
  admin_role text := (SELECT role_name FROM embed_console.team_roles WHERE kind = 'admin');
  object record;
  legacy text;
BEGIN
  EXECUTE format('ALTER SCHEMA embed_console OWNER TO %I', owner_role);
  FOR object IN SELECT c.oid::regclass AS name FROM pg_class c
                 WHERE c.relnamespace = 'embed_console'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm') LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO %I', object.name, owner_role);
  END LOOP;
  -- Sequences of their own (an identity column's follows its table).
  FOR object IN SELECT c.oid::regclass AS name FROM pg_class c
                 WHERE c.relnamespace = 'embed_console'::regnamespace AND c.relkind = 'S'
                   AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i')) LOOP
    EXECUTE format('ALTER SEQUENCE %s OWNER TO %I', object.name, owner_role);
  END LOOP;
  FOR object IN SELECT p.oid::regprocedure AS name FROM pg_proc p WHERE p.pronamespace = 'embed_console'::regnamespace LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO %I', object.name, owner_role);
  END LOOP;

  REVOKE ALL ON SCHEMA embed_console FROM PUBLIC;
  REVOKE ALL ON ALL TABLES IN SCHEMA embed_console FROM PUBLIC;
  REVOKE ALL ON ALL FUNCTIONS IN SCHEMA embed_console FROM PUBLIC;
  FOREACH legacy IN ARRAY ARRAY['embed_console_operator', 'embed_console_admin'] LOOP
    IF to_regrole(legacy) IS NOT NULL THEN
      EXECUTE format('REVOKE ALL ON SCHEMA embed_console FROM %I', legacy);
      EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA embed_console FROM %I', legacy);
      EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA embed_console FROM %I', legacy);
      EXECUTE format('REVOKE ALL ON ALL FUNCTIONS IN SCHEMA embed_console FROM %I', legacy);
    END IF;
  END LOOP;

  EXECUTE format('GRANT USAGE ON SCHEMA embed_console TO %I', operator_role);
  EXECUTE format('GRANT SELECT ON embed_console.schema_version, embed_console.team_roles, embed_console.activity, embed_console.actors,
                  embed_console.groups, embed_console.retired_tokens, embed_console.runs, embed_console.profiles TO %I', operator_role);
  EXECUTE format('GRANT SELECT (server, group_key, state, actor, host, run_id, claimed_at, expires_at) ON embed_console.claims TO %I', operator_role);
  EXECUTE format('GRANT EXECUTE ON FUNCTION
    embed_console.acquire_run(text, text, text, int, text, text, int),
    embed_console.renew_run(text, text, bigint, int),
    embed_console.release_run(text, text, bigint),
    embed_console.claim_group(text, text, uuid, text, text, text, text, bigint, int),
    embed_console.release_claim(uuid),
    embed_console.record_calls(jsonb) TO %I', operator_role);
  EXECUTE format('GRANT EXECUTE ON FUNCTION embed_console.upsert_profile(uuid, text, text, int, text, text, boolean) TO %I', admin_role);

  -- Version 1's cluster-wide roles, once no database uses them any more.
  FOREACH legacy IN ARRAY ARRAY['embed_console_admin', 'embed_console_operator', 'embed_console_owner'] LOOP
    IF to_regrole(legacy) IS NOT NULL
       AND NOT EXISTS (SELECT FROM pg_shdepend s WHERE s.refclassid = 'pg_authid'::regclass AND s.refobjid = to_regrole(legacy)::oid) THEN
      BEGIN
        EXECUTE format('DROP ROLE %I', legacy);
      EXCEPTION WHEN dependent_objects_still_exist OR insufficient_privilege THEN
        RAISE NOTICE '%', format('The cluster-wide role %s of schema version 1 stays: %s', legacy, SQLERRM);
      END;
    END IF;
  END LOOP;
END
$grants$;
