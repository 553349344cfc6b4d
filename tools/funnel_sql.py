"""What tools/duckdb-funnel and tools/spark-funnel share: their command
line, tools/funnel.sql with its EDIT parts filled in, and the CSV of
`navlog funnel --format csv` printed from the query's rows.

The input is the CSV of `navlog export screens --with-marks`, or a
directory of its gzip parts (`--output DIR`, with or without
`--partition-by day`).
"""
import csv
import glob
import gzip
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
UNITS_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
# How each engine reads a field of a JSON text ('' when it is missing or null).
JSON_FIELD = {"duckdb": "json_extract_string", "spark": "get_json_object"}


class Usage(Exception):
    """A command-line mistake: printed as one line with the usage, exit 2."""


class InputProblem(Usage):
    """An input that is not an export (missing, a store, no parts, the wrong
    CSV): one line saying what it is and what to run, exit 2."""


class Args:
    def __init__(self):
        self.path, self.steps, self.within_ms, self.by, self.print_sql = None, [], None, None, False
        self.timing = None  # --timing FILE: the engine's seconds for reading and querying (navlog-bench)


SCREEN_COLUMNS = ["session", "seq", "t", "scene", "screen"]


def check_export(path, marks=True):
    """What a user might give instead of an export, each said in one line
    (a Usage): a missing path, a store or a log, a directory without parts,
    a file that is not the CSV of `navlog export screens`, and (for the
    funnel, `marks`) an export made without `--with-marks`."""
    export = "navlog export screens STORE --with-marks --output DIR" if marks else "navlog export screens STORE > SCREENS.csv"
    if not os.path.exists(path):
        raise InputProblem(f"{path}: no such file or directory")
    if os.path.isdir(path):
        names = os.listdir(path)
        if "navlog-store" in names or any(n.endswith((".navlog", ".nls")) for n in names):
            raise InputProblem(f"{path}: a navlog store, not an export of one: run `{export}` and give its output")
        parts = sorted(glob.glob(os.path.join(glob.escape(path), "**", "*.csv.gz"), recursive=True))
        if not parts:
            raise InputProblem(f"{path}: no *.csv.gz part files in it: not the output of `{export}`")
        first = parts[0]
    else:
        first = path
    try:
        with open(first, "rb") as f:
            head = f.read(2)
        opener = gzip.open if head == b"\x1f\x8b" else open
        with opener(first, "rt", encoding="utf-8", newline="") as f:
            header = f.readline().rstrip("\r\n").split(",")
    except UnicodeDecodeError:
        raise InputProblem(f"{first}: binary data, not the CSV of `{export}`")
    except (OSError, EOFError) as error:
        raise InputProblem(f"{first}: cannot be read ({getattr(error, 'strerror', None) or error})")
    if header[:5] != SCREEN_COLUMNS:
        raise InputProblem(f"{first}: not the CSV of `{export}` (its header is not {','.join(SCREEN_COLUMNS)}…)")
    if marks and "kind" not in header:
        raise InputProblem(f"{first}: an export made without --with-marks (no kind column): run `{export}`")


def within_ms_of(text):
    """`navlog funnel --within`'s durations: 90s, 10m, 1h30m, 1.5s (units ms s m h d)."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise Usage(f"--within takes a duration such as 90s, 10m, 1h30m or 1.5s (units ms s m h d), got {text}")
    total = sum(Decimal(n) * UNITS_MS[u] for n, u in parts)
    if total != total.to_integral_value():
        raise Usage(f"--within must be whole milliseconds, got {text}")
    return int(total)


def parse(argv):
    args = Args()
    i = 0
    while i < len(argv):
        a = argv[i]
        value = argv[i + 1] if i + 1 < len(argv) else None
        if a == "--step" and value is not None:
            args.steps.append(value); i += 2
        elif a == "--within-ms" and value is not None:
            if not value.isdigit():
                raise Usage(f"--within-ms takes whole milliseconds, got {value}")
            args.within_ms = int(value); i += 2
        elif a == "--within" and value is not None:
            args.within_ms = within_ms_of(value); i += 2
        elif a == "--by" and value is not None:
            if not re.fullmatch(r"[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*", value):
                raise Usage(f"--by takes a dotted path of letters, digits and _ such as app.version, got \"{value}\"")
            args.by = value; i += 2
        elif a == "--timing" and value is not None:
            args.timing = value; i += 2
        elif a == "--print-sql":
            args.print_sql = True; i += 1
        elif a.startswith("-") and a != "-":
            raise Usage(f"{a} needs a value" if a in ("--step", "--within", "--within-ms", "--by", "--timing") else f"unknown option {a}")
        elif args.path is None:
            args.path = a; i += 1
        else:
            raise Usage("one input only (a CSV file or a directory of parts)")
    if args.path is None or not args.steps:
        raise Usage("give the export (a CSV file or a directory of parts) and at least one --step")
    if len(args.steps) > 8:
        raise Usage("tools/funnel.sql takes at most 8 steps")
    return args


def sql_for(args, engine):
    """tools/funnel.sql with the steps, the window and the segment filled in."""
    with open(os.path.join(HERE, "funnel.sql"), encoding="utf-8") as f:
        sql = f.read()
    quoted = ",\n    ".join(f"({i}, '{p.replace(chr(39), chr(39) * 2)}')" for i, p in enumerate(args.steps, start=1))
    sql, n1 = re.subn(r"\(VALUES\n.*?\n  \) AS s\(step, pattern\)", lambda m: f"(VALUES\n    {quoted}\n  ) AS s(step, pattern)", sql, flags=re.S)
    window = "CAST(NULL AS BIGINT)" if args.within_ms is None else f"CAST({int(args.within_ms)} AS BIGINT)"
    sql, n2 = re.subn(r"CAST\(NULL AS BIGINT\) AS within_ms", f"{window} AS within_ms", sql)
    segment = "''" if args.by is None else f"COALESCE({JSON_FIELD[engine]}(s.start_line, '$.{args.by}'), '')"
    sql, n3 = re.subn(r"'' AS segment  -- EDIT", lambda m: f"{segment} AS segment  -- EDIT", sql)
    sql, n4 = re.subn(r"FALSE AS segmented", "FALSE AS segmented" if args.by is None else "TRUE AS segmented", sql)
    if (n1, n2, n3, n4) != (1, 1, 1, 1):
        raise Usage("tools/funnel.sql no longer has the EDIT parts this script fills in")
    return sql


def write_rows(header, rows, out=sys.stdout):
    """The CSV of navlog's `--format csv`: NULL as an empty cell."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else str(v) for v in row])


def write_csv(rows, by, out=sys.stdout):
    """The rows (segment first) as `navlog funnel --format csv` prints them."""
    header = ["step", "pattern", "sessions", "conversion_from_start", "conversion_from_previous", "median_seconds_from_previous"]
    write_rows((["segment"] if by is not None else []) + header, (row if by is not None else row[1:] for row in rows), out)


def write_timing(path, seconds):
    """`--timing FILE`: the engine's seconds (reading the export and querying, not Python's start)."""
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"{seconds:.6f}\n")


def main(argv, prog, run):
    """Parses argv, then prints the SQL or runs it with `run(args, sql)` (rows back)."""
    engine = "spark" if "spark" in prog else "duckdb"
    try:
        args = parse(argv)
        sql = sql_for(args, engine)
        if args.print_sql:
            sys.stdout.write(sql)
            return 0
        check_export(args.path)
        write_csv(run(args, sql), args.by)
        return 0
    except InputProblem as problem:
        sys.stderr.write(f"{prog}: {problem}\n")
        return 2
    except Usage as problem:
        sys.stderr.write(f"{prog}: {problem}\nusage: tools/{prog} EXPORT --step P [--step P …] [--within D | --within-ms N] [--by FIELD] [--print-sql]\n")
        return 2
