"""The instructor's workspace under /teach/: classes and rosters, drills, scenarios and
assignments, for pit bosses (their own classes) and administrators (all of them).

One module of views per concern (classes, drills, scenarios, assignments), each with its
own URL list included by `urls.py`; every write goes through a service."""
