"""Celery settings: a server-less filesystem broker by default, Redis when configured."""

from .environment import DATA_DIR, env

# The embedded default needs no server: kombu's filesystem transport keeps messages as
# files in three folders that must exist before a worker starts (config.celery makes them).
CELERY_FILESYSTEM_ROOT = DATA_DIR / "celery"
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_FILESYSTEM_ROOT / "out"),
        "data_folder_out": str(CELERY_FILESYSTEM_ROOT / "out"),
        "processed_folder": str(CELERY_FILESYSTEM_ROOT / "processed"),
        "control_folder": str(CELERY_FILESYSTEM_ROOT / "control"),
        "store_processed": False,
    }
else:
    # acks_late redelivers a killed worker's task once this has passed.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300)
    }
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="django-db")
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Acknowledged late with a prefetch of one, a worker process holds at most the task it runs
# and one received (and a retry waiting out its countdown): the runs of those a killed
# worker had not started are queued again by the sweep after the grading timeout above.
CELERY_WORKER_PREFETCH_MULTIPLIER = env.int("CELERY_WORKER_PREFETCH_MULTIPLIER", default=1)
# Celery's Django fix-up closes a worker's database connections before and after every task
# unless this is set (celery#9824 took back its honouring CONN_MAX_AGE): each task then
# opened a new PostgreSQL session (on the submission path, where a task grades a few runs,
# a third of the worker's py-spy samples were connecting). With it the fix-up closes them
# only every this many tasks, and config.celery treats each task as Django treats a request
# (close_old_connections before and after: CONN_MAX_AGE, a connection left unusable by an
# error, CONN_HEALTH_CHECKS).
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# A run left pending this long is queued again by the sweep: its task never reached the
# broker, or a worker received it and died before starting it (the broker keeps that message
# unacked until the visibility timeout, which stays long: docs/operations.md). The claim is
# atomic, so a run queued twice is graded once; a run merely waiting behind a backlog gets
# one more task each timeout, which comes after the first and finds its run graded.
# A grading wake-up (core.queue, trainer.services.grading.coalesce) stays marked on its way
# this long at most: the submits behind a lost one queue nothing until then.
SHOESCHOOL_GRADING_TIMEOUT_SECONDS = env.int("SHOESCHOOL_GRADING_TIMEOUT_SECONDS", default=10)
# A worker that starts grading a run takes a lease on it for this long; the grading
# transaction then holds the run's row lock until it commits. A run whose lease ran out and
# whose row nobody holds (its worker died) is queued again by the next sweep, which runs every
# SHOESCHOOL_GRADING_SWEEP_SECONDS: a killed worker's runs are queued again within the sum of
# the two (trainer.services.grading.sweep.grading_fault_bound).
SHOESCHOOL_GRADING_LEASE_SECONDS = env.int("SHOESCHOOL_GRADING_LEASE_SECONDS", default=10)
SHOESCHOOL_GRADING_SWEEP_SECONDS = env.int("SHOESCHOOL_GRADING_SWEEP_SECONDS", default=5)
# How often the ledger's head is appended to the checkpoint file (a line only when it moved).
SHOESCHOOL_LEDGER_CHECKPOINT_SECONDS = env.int("SHOESCHOOL_LEDGER_CHECKPOINT_SECONDS", default=3600)
# How often the whole ledger is verified (ledger.tasks.verify_ledger_full): the reports verify
# only what came after the last checkpoint.
SHOESCHOOL_LEDGER_FULL_VERIFY_SECONDS = env.int(
    "SHOESCHOOL_LEDGER_FULL_VERIFY_SECONDS", default=86400
)
CELERY_BEAT_SCHEDULE = {
    "grading-sweep": {
        "task": "trainer.tasks.grading_sweep",
        "schedule": float(SHOESCHOOL_GRADING_SWEEP_SECONDS),
    },
    # Exam sittings and speed attempts left open past their time box are submitted.
    "close-expired-attempts": {"task": "trainer.tasks.close_expired_attempts", "schedule": 60.0},
    # Compliance reports left pending (a lost task) are produced again.
    "compliance-report-sweep": {
        "task": "audit.tasks.sweep_compliance_reports",
        "schedule": 600.0,
    },
    # The ledger's head, signed, to a file outside the database (ledger.services.anchors).
    "ledger-checkpoint": {
        "task": "ledger.tasks.checkpoint_ledger",
        "schedule": float(SHOESCHOOL_LEDGER_CHECKPOINT_SECONDS),
    },
    "ledger-full-verify": {
        "task": "ledger.tasks.verify_ledger_full",
        "schedule": float(SHOESCHOOL_LEDGER_FULL_VERIFY_SECONDS),
    },
    # E-mails (teaching.services.notifications, teaching.tasks under the names they had in
    # trainer): each sent once, so running often is safe.
    "assignment-notifications": {
        "task": "trainer.tasks.send_assignment_notifications",
        "schedule": 900.0,
    },
    "audit-notifications": {"task": "audit.tasks.send_audit_notifications", "schedule": 900.0},
}
# A compliance report over more graded questions than this is produced by a Celery task
# instead of during the request.
COMPLIANCE_REPORT_SYNC_MAX_QUESTIONS = env.int(
    "SHOESCHOOL_REPORT_SYNC_MAX_QUESTIONS", default=20000
)
