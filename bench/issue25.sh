#!/bin/sh
# (bench/all runs every bench, at these sizes and more, and prints one table: prefer it.)
# Issue #25, deliverable 8: every bench docs/benchmarks.md lists, at the sizes of the
# "Issue 25: before and after (same machine)" section there. Run from a checkout's root:
#   bench/issue25.sh LABEL [GROUP ...]   # LABEL: before | after (names the scratch databases)
# GROUPs (all by default, in this order): engine library api table grading export verify
# dashboard history floor. Needs the dev PostgreSQL (PG, default 127.0.0.1:55433, trust) and
# Redis (REDIS, default redis://127.0.0.1:56380/6). Each bench's output goes to
# var/bench-issue25-LABEL/<name>.log; the scratch databases i25_LABEL_* are made afresh and
# dropped after their group.
set -u
LABEL=${1:?before or after}
shift
BENCHES=${*:-engine library api table grading export verify dashboard history floor}
PG=${PG:-postgres://postgres@127.0.0.1:55433}
REDIS=${REDIS:-redis://127.0.0.1:56380/6}
PY=${PY:-/work/main/.venv/bin/python}
OUT=var/bench-issue25-$LABEL
mkdir -p "$OUT"
export PYTHONPATH=. DJANGO_ENV=development
fresh() { psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" 2>/dev/null; }
drop() { psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $1" 2>/dev/null; }
run() {  # run NAME COMMAND...: load average before, the command, wall and exit status
    name=$1; shift
    echo "== $name: $* (load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S))" | tee -a "$OUT/$name.log"
    start=$(date +%s)
    "$@" >>"$OUT/$name.log" 2>&1
    echo "== $name: exit $? after $(( $(date +%s) - start )) s" | tee -a "$OUT/$name.log"
}
for group in $BENCHES; do
    DB=i25_${LABEL}_$group
    U=$PG/$DB
    case $group in
    engine) run engine $PY bench/engine.py --rounds 20000 --repeat 3 ;;
    library) run library $PY bench/library.py --rounds 2000 ;;
    api) run api $PY bench/api.py --attempts 3 --assignments 200 ;;
    table) run table $PY bench/table.py --attempts 3 --rounds 10 ;;
    grading)
        fresh $DB
        run grading-load env DATABASE_URL=$U $PY bench/grading.py --decisions 20000 --in-process
        run grading-inproc-1 env DATABASE_URL=$U $PY bench/grading.py --in-process --reuse
        run grading-inproc-2 env DATABASE_URL=$U $PY bench/grading.py --in-process --reuse
        run grading-worker env DATABASE_URL=$U CELERY_BROKER_URL=$REDIS $PY bench/grading.py --reuse --concurrency 2
        drop $DB ;;
    export)
        fresh $DB
        run export-load env DATABASE_URL=$U $PY bench/export.py --decisions 100000
        run export env DATABASE_URL=$U $PY bench/export.py --decisions 100000 --reuse
        drop $DB ;;
    verify)
        fresh $DB
        run verify env DATABASE_URL=$U $PY bench/verify.py --entries 200000 --after 1000 --repeat 3
        drop $DB ;;
    dashboard)
        fresh $DB
        run dashboard-fill env DATABASE_URL=$U $PY bench/dashboard.py --trainees 50 --decisions 100000 --concurrency 2 --requests 5 --seconds 5 --port 8776
        run dashboard env DATABASE_URL=$U $PY bench/dashboard.py --skip-fill --trainees 50 --decisions 100000 --concurrency 2 --requests 40 --seconds 20 --port 8776
        drop $DB ;;
    history)
        fresh $DB
        run history env DATABASE_URL=$U $PY bench/history.py --decisions 500000 --trainees 100 --classes 5 --steps verify export dashboards
        drop $DB ;;
    floor)
        run floor env DATABASE_URL=$PG/postgres $PY bench/floor.py --database $DB --sizes 50 100 --duration 60 --rounds 3
        drop $DB ;;
    *) echo "unknown group $group" >&2; exit 2 ;;
    esac
done
