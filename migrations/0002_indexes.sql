-- 0002_indexes: indexes for the start-up scan, a player's games, challenges and leaderboards.

-- Keyed by game_id, which never changes: a move (new deadline) touches no index.
CREATE INDEX games_running ON games (game_id) WHERE status = 'running';
CREATE INDEX games_pink ON games (pink_id, status);
CREATE INDEX games_blue ON games (blue_id, status);
CREATE INDEX games_guild_finished ON games (guild_id, finished);
CREATE INDEX challenges_open ON challenges (expires) WHERE status = 'open';
CREATE INDEX challenges_pair ON challenges (guild_id, challenger_id, opponent_id, status);
CREATE INDEX ratings_board ON ratings (guild_id, rating DESC);
