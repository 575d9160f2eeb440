/// The `--state` database's tables (documented in the README, "State database"). Times are
/// kept twice: exact integers for the engine (`*_seconds`, `*_nanos`) and RFC 3339 text for
/// people (`*_time`, which SQLite's date functions read).
enum StateSchema {
    static let version = 4

    /// What takes a database of version `v` to `v + 1` (a file written by an earlier release
    /// is upgraded when opened; a later one's is refused).
    static let upgrades: [Int: String] = [
        // 2: the motion rules' state (`--crossing`, `--dwell`).
        1: """
        ALTER TABLE devices ADD COLUMN previous_latitude REAL;
        ALTER TABLE devices ADD COLUMN previous_longitude REAL;
        ALTER TABLE device_landmarks ADD COLUMN entered_seconds INTEGER;
        ALTER TABLE device_landmarks ADD COLUMN entered_nanos INTEGER;
        ALTER TABLE device_landmarks ADD COLUMN entered_time TEXT;
        """,
        // 3: who is inside now (the latest fix, since when inside); the changes `serve` took
        // over its API (their tables are made by `create`).
        2: """
        ALTER TABLE devices ADD COLUMN fix_latitude REAL;
        ALTER TABLE devices ADD COLUMN fix_longitude REAL;
        ALTER TABLE devices ADD COLUMN fix_time TEXT;
        ALTER TABLE device_landmarks ADD COLUMN since_seconds INTEGER;
        ALTER TABLE device_landmarks ADD COLUMN since_nanos INTEGER;
        ALTER TABLE device_landmarks ADD COLUMN since_time TEXT;
        ALTER TABLE device_landmarks ADD COLUMN landmark_index INTEGER;
        ALTER TABLE device_landmarks ADD COLUMN landmark_name TEXT;
        """,
        // 4: how far `serve --nats` read each partition of a stream (the table is made by `create`).
        3: "SELECT 1",
    ]

    static let create = """
        CREATE TABLE IF NOT EXISTS meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS devices (
            device TEXT PRIMARY KEY,             -- the device name, byte for byte (UTF-8)
            latest_seconds INTEGER,              -- latest used timed fix (NULL: none yet)
            latest_nanos INTEGER,
            latest_time TEXT,                    -- the same, RFC 3339 UTC
            fix_count INTEGER NOT NULL,          -- used fixes (names .apns files of untimed fixes)
            previous_latitude REAL,              -- with --crossing or --dwell: the latest used fix,
            previous_longitude REAL,             --   when it was timed (the start of the next pass)
            fix_latitude REAL,                   -- the latest used fix (timed or not; NULL: not
            fix_longitude REAL,                  --   known, e.g. saved by a `watch` of schema 2)
            fix_time TEXT                        --   and its time, RFC 3339 UTC (NULL: untimed)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS device_landmarks (
            device TEXT NOT NULL,
            landmark_id INTEGER NOT NULL,        -- catalog id
            inside INTEGER NOT NULL,             -- 1: the device is inside (an exit is pending)
            notified INTEGER NOT NULL,           -- 1: notified at least once (cooldown applies)
            notified_seconds INTEGER,            -- fix time of the latest notification
            notified_nanos INTEGER,              --   (NULL: notified by an untimed fix)
            notified_time TEXT,
            entered_seconds INTEGER,             -- with --dwell: when the device entered it, while
            entered_nanos INTEGER,               --   its dwell is pending (NULL: none)
            entered_time TEXT,
            since_seconds INTEGER,               -- when the device went inside: the time of the
            since_nanos INTEGER,                 --   fix that entered (NULL: untimed, or unknown)
            since_time TEXT,
            landmark_index INTEGER,              -- its landmarkIndex and name when saved (for
            landmark_name TEXT,                  --   `landmark-near devices`, which has no catalog)
            PRIMARY KEY (device, landmark_id)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS landmark_changes (
            landmark_id INTEGER PRIMARY KEY,     -- PUT or DELETE /landmarks/ID (serve)
            position INTEGER NOT NULL,           -- its landmarkIndex (kept: indexes never shift)
            feature TEXT,                        -- the GeoJSON Feature in force; NULL: deleted
            changed_by TEXT,                     -- the admin user (NULL: no --users)
            changed_at TEXT NOT NULL             -- wall clock, RFC 3339 UTC
        );
        CREATE TABLE IF NOT EXISTS profile_changes (
            device TEXT PRIMARY KEY,             -- PUT or DELETE /profiles/DEVICE (serve)
            profile TEXT,                        -- the profile object in force; NULL: deleted
            changed_by TEXT,
            changed_at TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS nmea_dates (
            device TEXT PRIMARY KEY,             -- the device of the NMEA fixes (`default`)
            rmc_seconds INTEGER NOT NULL,        -- date and time of day of the latest RMC read:
            rmc_time TEXT NOT NULL               --   it dates the GGA, GLL and GNS after it
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS stream_positions (
            stream TEXT NOT NULL,                -- serve --nats: the JetStream stream
            partition INTEGER NOT NULL,          --   a partition of it (subject STREAM.PARTITION)
            sequence INTEGER NOT NULL,           --   the stream sequence of its last message committed
            stream_created INTEGER NOT NULL,     --   when JetStream made the stream (ns since 1970)
            updated_at TEXT NOT NULL,            --   wall clock, RFC 3339 UTC
            PRIMARY KEY (stream, partition)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS notifications (
            id INTEGER PRIMARY KEY,              -- stable, in decision order
            device TEXT NOT NULL,
            landmark_id INTEGER NOT NULL,
            landmark_index INTEGER NOT NULL,     -- landmarkIndex of the payload
            landmark_name TEXT NOT NULL,
            fix_time TEXT,                       -- RFC 3339 UTC; NULL for an untimed fix
            fix_number INTEGER NOT NULL,         -- the device's used-fix number
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            distance_m REAL NOT NULL,
            payload TEXT NOT NULL,               -- the APNs payload JSON
            line TEXT NOT NULL,                  -- the stdout line
            apns_file TEXT NOT NULL,             -- its .apns file name
            status TEXT NOT NULL DEFAULT 'decided' CHECK (status IN ('decided', 'done')),
            decided_at TEXT NOT NULL,            -- wall clock, RFC 3339 UTC
            done_at TEXT                         -- when printed and written (wall clock)
        );
        CREATE INDEX IF NOT EXISTS notifications_undone ON notifications(id) WHERE status = 'decided';
        CREATE INDEX IF NOT EXISTS notifications_by_device ON notifications(device, fix_time);
        CREATE TABLE IF NOT EXISTS deliveries (
            notification_id INTEGER NOT NULL REFERENCES notifications(id),
            target TEXT NOT NULL,                -- 'apns:<token>' (whole: a restart resends to it), 'webhook:<url>'
            status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'retried', 'failed', 'retired')),
            attempts INTEGER NOT NULL DEFAULT 0,
            reason TEXT,                         -- why it failed or was retired
            updated_at TEXT NOT NULL,
            PRIMARY KEY (notification_id, target)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS deliveries_open ON deliveries(status) WHERE status IN ('pending', 'retried');
        """
}
