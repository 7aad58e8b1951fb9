"""Grading's queries counted, the submission path against the bulk path (issue #29).

usage: DATABASE_URL=postgres://.../scratch python bench/count_grading.py

Loads bench/grading.py's fill (4,000 decisions asked, 200 attempts of ten rounds), then,
in this process and without a worker: the submission path (a run requested per attempt,
then each run's task, `grading_run_execute_coalesced`, in turn: the first takes the runs
waiting behind it along) and the bulk path (`grading_request_batch`, then batches of
100), printing the queries each makes, per run and per decision. Counts, not seconds: they
do not move with the machine's load. Use a scratch database: it adds rows.
"""

# ruff: noqa: E402
import sys

sys.argv = ["grading.py"]
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import bench.grading as g
from trainer.models import Decision
from trainer.services.grading.coalesce import grading_run_execute_coalesced
from trainer.services.grading.execute import grading_runs_execute
from trainer.services.grading.request import RUNS_PER_TASK, grading_request, grading_request_batch

call_command("migrate", verbosity=0)
attempts = g.load(4000, 10, 7)
ids = [a.pk for a in attempts]
decisions = Decision.objects.filter(item__attempt_id__in=ids).count()
print(f"{decisions} decisions, {len(ids)} attempts, {connection.vendor}")


def counted(f):
    with CaptureQueriesContext(connection) as q:
        out = f()
    return len(q), out


def submit_path():
    with transaction.atomic():
        return [grading_request(attempt=a) for a in attempts]


n, runs = counted(submit_path)
print(f"submit path: request {n} queries ({n / len(ids):.1f} a run)")
per_task: list[int] = []


def tasks():
    for r in runs:
        per_task.append(counted(lambda r=r: grading_run_execute_coalesced(run_id=r.pk))[0])


n, _ = counted(tasks)
print(
    f"submit path: grading {n} queries, {n / decisions:.3f} a decision; "
    f"queries a task: {sorted(set(per_task))}"
)
n, runs = counted(lambda: grading_request_batch(attempts=attempts))
print(f"bulk: request {n} queries ({n / len(ids):.2f} a run)")


def bulk():
    ids2 = [r.pk for r in runs]
    for s in range(0, len(ids2), RUNS_PER_TASK):
        grading_runs_execute(run_ids=ids2[s : s + RUNS_PER_TASK])


n, _ = counted(bulk)
print(f"bulk: grading {n} queries, {n / decisions:.3f} a decision")
