-- tools/funnel.sql: `navlog funnel` in SQL, for data that outgrows one machine.
--
-- The same funnel as `navlog funnel --step P …` (docs/commands.md):
-- globs over screen names, `mark:` and `url:` steps, ordered earliest-match
-- chains, the best start per session (most steps; the earliest start on a
-- tie), an optional inclusive window from the start, sessions that never
-- reach step 1 counted, medians of an even count the mean of the middle two
-- (rounded half away from zero to whole milliseconds), and with --by one
-- funnel per segment: the value of a field of each session's first
-- session.start ('' without one). Not here: --order strict, --exclude,
-- --from/--to. At most 8 steps.
--
-- Input: a table or view named `screens` holding the rows of
--   navlog export screens STORE --with-marks > steps.csv
-- or of its parts, `--output steps/ --partition-by day` (docs/export.md)
-- (columns session,seq,t,scene,screen,kind), every column read as text:
--   DuckDB:    CREATE VIEW screens AS SELECT * FROM read_csv('steps.csv', header = true, all_varchar = true);
--   Spark SQL: CREATE TEMPORARY VIEW screens USING csv
--                OPTIONS (path 'steps/', header 'true', escape '"', multiLine 'true');
-- then run this file (DuckDB: `.read tools/funnel.sql`; spark-sql: `-f`).
--
-- Edit the parts marked EDIT: the steps, the window in milliseconds (NULL
-- for none) and the segment (--by). The output has the columns of
-- `navlog funnel --format csv`, with a first column `segment` ('' when not
-- segmented: drop it then). tools/duckdb-funnel and tools/spark-funnel fill
-- them in.
--
-- Written in the SQL both DuckDB and Spark SQL accept: no recursive CTE, no
-- engine-specific date functions (times are taken apart as text), LIKE with
-- an explicit ESCAPE, min_by, window functions. Only the segment's JSON
-- field differs: json_extract_string in DuckDB, get_json_object in Spark.

WITH
params AS (
  SELECT CAST(NULL AS BIGINT) AS within_ms,  -- EDIT: the window, e.g. 600000 for --within 10m
         FALSE AS segmented                   -- EDIT: TRUE with a segment (--by)
),
steps AS (
  -- EDIT: one row per --step, numbered from 1
  SELECT step, pattern FROM (VALUES
    (1, 'tab:*'),
    (2, 'Recipe/*'),
    (3, 'mark:purchase')
  ) AS s(step, pattern)
),
-- Each session and its segment: a field of its first session.start (the
-- `start` row with the least seq; its screen holds the event's JSON line).
session_starts AS (
  SELECT session, min_by(screen, CAST(seq AS BIGINT)) AS start_line
  FROM screens
  WHERE kind = 'start'
  GROUP BY session
),
segments AS (
  SELECT a.session,
         '' AS segment  -- EDIT: e.g. COALESCE(json_extract_string(s.start_line, '$.app.version'), '') for --by app.version
  FROM (SELECT DISTINCT session FROM screens) AS a
  LEFT JOIN session_starts s ON s.session = a.session
),
-- Each step: what it matches (screen, mark or url) and its glob as a LIKE
-- pattern (`*` → `%`; `%`, `_` and the escape `!` taken literally).
step_patterns AS (
  SELECT step, kind,
         replace(replace(replace(replace(step_glob, '!', '!!'), '%', '!%'), '_', '!_'), '*', '%') AS like_pattern
  FROM (
    SELECT step,
           CASE WHEN pattern LIKE 'mark:%' THEN 'mark' WHEN pattern LIKE 'url:%' THEN 'url' ELSE 'screen' END AS kind,
           CASE WHEN pattern LIKE 'mark:%' THEN substring(pattern, 6)
                WHEN pattern LIKE 'url:%' THEN substring(pattern, 5)
                ELSE pattern END AS step_glob
    FROM steps
  ) AS p
),
-- `t` is always 2026-11-20T10:00:05.120Z: whole milliseconds since 1970
-- from its parts (days from the civil date, H. Hinnant's algorithm).
parts AS (
  SELECT session, CAST(seq AS BIGINT) AS seq, kind, screen AS name,
         CAST(substring(t, 1, 4) AS BIGINT) - CASE WHEN CAST(substring(t, 6, 2) AS BIGINT) <= 2 THEN 1 ELSE 0 END AS y,
         CAST(substring(t, 6, 2) AS BIGINT) AS mo,
         CAST(substring(t, 9, 2) AS BIGINT) AS d,
         CAST(substring(t, 12, 2) AS BIGINT) * 3600000 + CAST(substring(t, 15, 2) AS BIGINT) * 60000
           + CAST(substring(t, 18, 2) AS BIGINT) * 1000 + CAST(substring(t, 21, 3) AS BIGINT) AS ms_of_day
  FROM screens
  WHERE kind IN ('screen', 'mark', 'url')
),
occurrences AS (
  SELECT session, seq, kind, name,
         (CAST(FLOOR(y / 400) AS BIGINT) * 146097
          + (y - CAST(FLOOR(y / 400) AS BIGINT) * 400) * 365
          + CAST(FLOOR((y - CAST(FLOOR(y / 400) AS BIGINT) * 400) / 4) AS BIGINT)
          - CAST(FLOOR((y - CAST(FLOOR(y / 400) AS BIGINT) * 400) / 100) AS BIGINT)
          + CAST(FLOOR((153 * ((mo + 9) % 12) + 2) / 5) AS BIGINT) + d - 1
          - 719468) * 86400000 + ms_of_day AS ms
  FROM parts
),
-- Every (occurrence, step) it matches.
matches AS (
  SELECT o.session, o.seq, o.ms, sp.step
  FROM occurrences o
  JOIN step_patterns sp ON o.kind = sp.kind AND o.name LIKE sp.like_pattern ESCAPE '!'
),
-- From each occurrence matched as step k: the earliest occurrence of step
-- k+1 with a strictly greater seq.
link AS (
  SELECT a.session, a.step, a.seq AS from_seq, MIN(b.seq) AS to_seq, min_by(b.ms, b.seq) AS to_ms
  FROM matches a
  JOIN matches b ON b.session = a.session AND b.step = a.step + 1 AND b.seq > a.seq
  GROUP BY a.session, a.step, a.seq
),
-- The chain from every start (an occurrence of step 1), one level a step;
-- a step outside the window ends the chain.
c1 AS (
  SELECT m.session, m.seq AS start_seq, m.ms AS start_ms, m.seq AS seq1, m.ms AS ms1, p.within_ms
  FROM matches m CROSS JOIN params p
  WHERE m.step = 1
),
c2 AS (
  SELECT c.*,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_seq END AS seq2,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_ms END AS ms2
  FROM c1 c
  LEFT JOIN link l ON l.session = c.session AND l.step = 1 AND l.from_seq = c.seq1
),
c3 AS (
  SELECT c.*,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_seq END AS seq3,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_ms END AS ms3
  FROM c2 c
  LEFT JOIN link l ON l.session = c.session AND l.step = 2 AND l.from_seq = c.seq2
),
c4 AS (
  SELECT c.*,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_seq END AS seq4,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_ms END AS ms4
  FROM c3 c
  LEFT JOIN link l ON l.session = c.session AND l.step = 3 AND l.from_seq = c.seq3
),
c5 AS (
  SELECT c.*,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_seq END AS seq5,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_ms END AS ms5
  FROM c4 c
  LEFT JOIN link l ON l.session = c.session AND l.step = 4 AND l.from_seq = c.seq4
),
c6 AS (
  SELECT c.*,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_seq END AS seq6,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_ms END AS ms6
  FROM c5 c
  LEFT JOIN link l ON l.session = c.session AND l.step = 5 AND l.from_seq = c.seq5
),
c7 AS (
  SELECT c.*,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_seq END AS seq7,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_ms END AS ms7
  FROM c6 c
  LEFT JOIN link l ON l.session = c.session AND l.step = 6 AND l.from_seq = c.seq6
),
c8 AS (
  SELECT c.*,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_seq END AS seq8,
         CASE WHEN c.within_ms IS NULL OR l.to_ms - c.start_ms <= c.within_ms THEN l.to_ms END AS ms8
  FROM c7 c
  LEFT JOIN link l ON l.session = c.session AND l.step = 7 AND l.from_seq = c.seq7
),
chains AS (
  SELECT c8.*, 1 + CASE WHEN seq2 IS NULL THEN 0 ELSE 1 END + CASE WHEN seq3 IS NULL THEN 0 ELSE 1 END + CASE WHEN seq4 IS NULL THEN 0 ELSE 1 END + CASE WHEN seq5 IS NULL THEN 0 ELSE 1 END + CASE WHEN seq6 IS NULL THEN 0 ELSE 1 END + CASE WHEN seq7 IS NULL THEN 0 ELSE 1 END + CASE WHEN seq8 IS NULL THEN 0 ELSE 1 END AS depth
  FROM c8
),
-- Each session's best start: the most steps, then the earliest start.
best AS (
  SELECT * FROM (
    SELECT ch.*, ROW_NUMBER() OVER (PARTITION BY session ORDER BY depth DESC, start_seq ASC) AS rank_in_session
    FROM chains ch
  ) AS r
  WHERE rank_in_session = 1
),
-- One row per (session, step reached), with its segment and the milliseconds from the previous step.
reached AS (
  SELECT s.step, b.session, g.segment,
         CASE s.step
           WHEN 2 THEN b.ms2 - b.ms1
           WHEN 3 THEN b.ms3 - b.ms2
           WHEN 4 THEN b.ms4 - b.ms3
           WHEN 5 THEN b.ms5 - b.ms4
           WHEN 6 THEN b.ms6 - b.ms5
           WHEN 7 THEN b.ms7 - b.ms6
           WHEN 8 THEN b.ms8 - b.ms7
         END AS gap_ms
  FROM best b
  JOIN segments g ON g.session = b.session
  JOIN steps s ON s.step <= b.depth
),
counts AS (
  SELECT segment, step, COUNT(*) AS n FROM reached GROUP BY segment, step
),
ranked AS (
  SELECT segment, step, gap_ms,
         ROW_NUMBER() OVER (PARTITION BY segment, step ORDER BY gap_ms) AS rn,
         COUNT(*) OVER (PARTITION BY segment, step) AS cnt
  FROM reached
  WHERE step > 1
),
medians AS (
  SELECT segment, step, CAST(ROUND(AVG(CAST(gap_ms AS DOUBLE))) AS BIGINT) AS median_ms
  FROM ranked
  WHERE rn = CAST(FLOOR((cnt + 1) / 2) AS BIGINT) OR rn = CAST(FLOOR((cnt + 2) / 2) AS BIGINT)
  GROUP BY segment, step
),
-- Sessions by segment, whether or not they reached step 1.
totals AS (
  SELECT segment, COUNT(*) AS sessions FROM segments GROUP BY segment
  UNION ALL
  -- No session at all: one funnel still, each step reached by none (as navlog prints it without --by).
  SELECT '' AS segment, 0 AS sessions FROM params p
  WHERE NOT p.segmented AND NOT EXISTS (SELECT 1 FROM segments)
),
table_rows AS (
  SELECT t.segment, s.step, s.pattern,
         COALESCE(c.n, 0) AS sessions,
         COALESCE(c1.n, 0) AS first_n,
         CASE WHEN s.step = 1 THEN t.sessions ELSE COALESCE(cp.n, 0) END AS previous_n,
         m.median_ms
  FROM steps s
  CROSS JOIN totals t
  LEFT JOIN counts c ON c.segment = t.segment AND c.step = s.step
  LEFT JOIN counts c1 ON c1.segment = t.segment AND c1.step = 1
  LEFT JOIN counts cp ON cp.segment = t.segment AND cp.step = s.step - 1
  LEFT JOIN medians m ON m.segment = t.segment AND m.step = s.step
)
-- Fractions rounded half up to 4 decimals exactly: floor((floor(2·10⁴·n/d) + 1) / 2).
SELECT segment, step, pattern, sessions,
       CASE WHEN first_n > 0
            THEN CAST(FLOOR((FLOOR(sessions * 20000.0 / first_n) + 1) / 2) / 10000.0 AS DECIMAL(10, 4)) END AS conversion_from_start,
       CASE WHEN previous_n > 0
            THEN CAST(FLOOR((FLOOR(sessions * 20000.0 / previous_n) + 1) / 2) / 10000.0 AS DECIMAL(10, 4)) END AS conversion_from_previous,
       CAST(median_ms / 1000.0 AS DECIMAL(18, 3)) AS median_seconds_from_previous
FROM table_rows
ORDER BY segment, step;
