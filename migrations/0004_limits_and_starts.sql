-- 0004_limits_and_starts: per-user limits per server; starts still to finish; replays.

-- What one member may have at once in a server; NULL: the bot's default (bot.games.challenges).
ALTER TABLE guilds ADD COLUMN max_open_challenges INTEGER
    CHECK (max_open_challenges IS NULL OR max_open_challenges BETWEEN 1 AND 1000);
ALTER TABLE guilds ADD COLUMN max_running_games INTEGER
    CHECK (max_running_games IS NULL OR max_running_games BETWEEN 1 AND 1000);
ALTER TABLE guilds ADD COLUMN max_computer_games INTEGER
    CHECK (max_computer_games IS NULL OR max_computer_games BETWEEN 1 AND 1000);

-- 1 once an accepted challenge's message says so (the bot may be killed before that edit; it
-- then makes it at start-up, with the game's thread and first picture). Older ones are done.
ALTER TABLE challenges ADD COLUMN answer_shown INTEGER NOT NULL DEFAULT 0
    CHECK (answer_shown IN (0, 1));
UPDATE challenges SET answer_shown = 1 WHERE status <> 'open';

-- The start-up scan for games whose first picture was never posted.
CREATE INDEX games_unstarted ON games (game_id) WHERE status = 'running' AND message_id IS NULL;
CREATE INDEX challenges_unshown ON challenges (challenge_id)
    WHERE status = 'accepted' AND answer_shown = 0;

-- The animated replay of a finished game (it never changes): rendered once, sent by /export.
CREATE TABLE replays (
    game_id INTEGER PRIMARY KEY REFERENCES games (game_id),
    gif     BLOB NOT NULL
);
