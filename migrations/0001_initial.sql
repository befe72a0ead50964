-- 0001_initial: servers, players, challenges, games, their actions, and Glicko-2 ratings.
-- Instants are unix seconds (REAL, UTC); durations are whole seconds (INTEGER); user, server,
-- channel, thread and message ids are Discord snowflakes (INTEGER).

CREATE TABLE guilds (
    guild_id        INTEGER PRIMARY KEY,
    game_channel_id INTEGER,
    default_clock   INTEGER NOT NULL DEFAULT 60 CHECK (default_clock BETWEEN 30 AND 604800),
    updated         REAL NOT NULL
);

CREATE TABLE players (
    user_id    INTEGER PRIMARY KEY,
    dm_on_turn INTEGER NOT NULL DEFAULT 0 CHECK (dm_on_turn IN (0, 1)),
    updated    REAL NOT NULL
);

CREATE TABLE challenges (
    challenge_id  INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,
    challenger_id INTEGER NOT NULL,
    opponent_id   INTEGER NOT NULL,
    width         INTEGER NOT NULL CHECK (width BETWEEN 5 AND 52),
    height        INTEGER NOT NULL CHECK (height BETWEEN 5 AND 52),
    rules         TEXT NOT NULL CHECK (rules IN ('standard', 'grounding')),
    start         TEXT NOT NULL,
    clock         INTEGER CHECK (clock IS NULL OR clock BETWEEN 30 AND 604800),
    colour        TEXT NOT NULL CHECK (colour IN ('pink', 'blue', 'random')),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status        TEXT NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    created       REAL NOT NULL,
    expires       REAL NOT NULL,
    game_id       INTEGER REFERENCES games (game_id)
);

CREATE TABLE games (
    game_id       INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    message_id    INTEGER,
    challenge_id  INTEGER REFERENCES challenges (challenge_id),
    pink_id       INTEGER NOT NULL,
    blue_id       INTEGER NOT NULL,
    width         INTEGER NOT NULL,
    height        INTEGER NOT NULL,
    rules         TEXT NOT NULL CHECK (rules IN ('standard', 'grounding')),
    start         TEXT NOT NULL,
    -- The starting dots as "1:E5 2:F5 ..." (1 Pink, 2 Blue): four-crosses is drawn at random,
    -- and a replay must not depend on the draw (rule 9.2).
    start_dots    TEXT NOT NULL DEFAULT '',
    seed          INTEGER,
    clock         INTEGER NOT NULL CHECK (clock BETWEEN 30 AND 604800),
    rated         INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status        TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'over', 'aborted')),
    winner        INTEGER CHECK (winner IN (1, 2)),
    pink_score    INTEGER,
    blue_score    INTEGER,
    reason        TEXT,
    -- How many actions the game has: the seq of the next one.
    moves         INTEGER NOT NULL DEFAULT 0,
    created       REAL NOT NULL,
    started       REAL NOT NULL,
    finished      REAL,
    -- The instant the player to move runs out of time (NULL once the game is not running).
    deadline      REAL,
    reminder_sent INTEGER NOT NULL DEFAULT 0 CHECK (reminder_sent IN (0, 1))
);

-- Rule 10.1: a game is its actions in order; a position is their replay.
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (game_id),
    seq     INTEGER NOT NULL CHECK (seq >= 0),
    kind    TEXT NOT NULL CHECK (kind IN ('dot', 'end', 'resign', 'time')),
    player  INTEGER NOT NULL CHECK (player IN (1, 2)),
    point   TEXT CHECK ((kind = 'dot') = (point IS NOT NULL)),
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated    REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- What each rated game did to each player's rating (for history).
CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games (game_id),
    user_id INTEGER NOT NULL,
    before  REAL NOT NULL,
    after   REAL NOT NULL,
    rd      REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
