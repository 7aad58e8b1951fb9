"""Training classes and their rosters, for pit bosses (the classes they teach) and
administrators (all of them):

- `membership`: creating and renaming a class, its trainees and instructors, who may;
- `invitations`: a new trainee account and the e-mailed link to choose a password;
- `roster`: a roster file, applied whole or not at all;
- `requests`: a trainee of another instructor's class, by a join request that instructor
  accepts, or an administrator's transfer.

The pages and the API call them through this package's names.
"""

from teaching.services.classes.invitations import (
    invitation_link,
    trainee_invitation_resend,
    trainee_invite,
)
from teaching.services.classes.membership import (
    NAME_MAX,
    class_instructor_add,
    class_instructor_remove,
    class_trainee_add,
    class_trainee_remove,
    training_class_create,
    training_class_rename,
)
from teaching.services.classes.requests import (
    class_join_request_accept,
    class_join_request_create,
    class_join_request_decline,
    class_trainee_transfer,
)
from teaching.services.classes.roster import (
    ROSTER_COLUMNS,
    ROSTER_MAX_ROWS,
    RosterProblem,
    RosterReport,
    roster_import,
    roster_rows_from_csv,
)

__all__ = [
    "NAME_MAX",
    "ROSTER_COLUMNS",
    "ROSTER_MAX_ROWS",
    "RosterProblem",
    "RosterReport",
    "class_instructor_add",
    "class_instructor_remove",
    "class_join_request_accept",
    "class_join_request_create",
    "class_join_request_decline",
    "class_trainee_add",
    "class_trainee_remove",
    "class_trainee_transfer",
    "invitation_link",
    "roster_import",
    "roster_rows_from_csv",
    "trainee_invitation_resend",
    "trainee_invite",
    "training_class_create",
    "training_class_rename",
]
