"""Grading: every decision of a submitted attempt against the engine's answer key.

- `request`: asking for a grading or a regrade (a run per attempt, queued on commit).
- `execute`: running runs (the Celery tasks call it): grades, results, ledger entries.
- `basis`: the answer key a round is graded against, cached per batch, and the rules
  transform, through the round's game (trainer.games).
- `sweep`: queueing again the runs whose task was lost.

What grading reads about runs (the newest run numbers, what to regrade) is in
trainer.selectors.runs; the bulk writers (COPY) are in core.postgres.
"""
