-- 0003_game_threads: find a game by the thread (or channel) it is played in.

CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
