-- tools/paths.sql: `navlog paths` (transitions) in SQL, for data that outgrows one machine.
--
-- The same table as `navlog paths INPUTS --format csv --top N` without
-- --after/--before (docs/analytics.md "navlog paths"): a transition is two
-- consecutive screen views (by seq) of one scene of one session; `count` is
-- how many times a transition occurred, `sessions` in how many sessions,
-- `share` count ÷ all transitions counted, rounded half up to 4 decimals.
-- Rows by count, then sessions (both descending), then from and to by
-- code point (the byte order of UTF-8).
--
-- Input: a table or view named `screens` holding the rows of
--   navlog export screens STORE [--with-marks] > screens.csv
-- (columns session,seq,t,scene,screen[,kind]), every column read as text:
--   DuckDB:    CREATE VIEW screens AS SELECT * FROM read_csv('screens.csv', header = true, all_varchar = true);
-- Only the rows of kind `screen` count: give a plain export (no `kind`
-- column) a constant `'screen' AS kind` in the view, as tools/duckdb-paths does.
--
-- Edit the part marked EDIT: how many rows (navlog's --top). The output has
-- the columns of `navlog paths --format csv`. `tools/duckdb-paths` fills it
-- in and runs it.

WITH
params AS (
  SELECT 10 AS top_n  -- EDIT: --top
),
views AS (
  SELECT session, CAST(seq AS BIGINT) AS seq, COALESCE(scene, '') AS scene, COALESCE(screen, '') AS screen
  FROM screens
  WHERE kind = 'screen'
),
pairs AS (
  SELECT session,
         LAG(screen) OVER (PARTITION BY session, scene ORDER BY seq) AS from_screen,
         screen AS to_screen
  FROM views
),
transitions AS (
  SELECT session, from_screen, to_screen FROM pairs WHERE from_screen IS NOT NULL
),
totals AS (
  SELECT COUNT(*) AS total FROM transitions
),
counted AS (
  SELECT from_screen, to_screen, COUNT(*) AS n, COUNT(DISTINCT session) AS sessions
  FROM transitions
  GROUP BY from_screen, to_screen
),
ranked AS (
  SELECT from_screen, to_screen, n, sessions,
         ROW_NUMBER() OVER (ORDER BY n DESC, sessions DESC, from_screen, to_screen) AS path_rank
  FROM counted
)
-- Shares rounded half up to 4 decimals exactly: floor((floor(2·10⁴·n/d) + 1) / 2).
SELECT r.path_rank AS rank, r.from_screen AS "from", r.to_screen AS "to", r.n AS count, r.sessions,
       CAST(FLOOR((FLOOR(r.n * 20000.0 / t.total) + 1) / 2) / 10000.0 AS DECIMAL(10, 4)) AS share
FROM ranked r CROSS JOIN totals t CROSS JOIN params p
WHERE r.path_rank <= p.top_n
ORDER BY r.path_rank;
