"""Every event the product writes to the ledger: one name for each kind of change recorded.

A service that appends to the ledger names its event from here and nowhere else, so this
list is the whole vocabulary a reader of the ledger (or of a compliance report) can meet.
`Subject` names what an entry is about (its `subject_type`), one name for each kind of record.

Both are `StrEnum`s marked `@unique`: a member is its stored string, so entries written before
the enums existed hash and verify exactly as they did, and no two names can share one value.
"""

from enum import StrEnum, unique


@unique
class Event(StrEnum):
    """The ledger's event names. Each says who acted on what."""

    SITTING_STARTED = "sitting.started"  # a trainee started a sitting of an assignment
    DECISION_RECORDED = "decision.recorded"  # a trainee answered a question of a round
    ATTEMPT_SUBMITTED = "attempt.submitted"  # a trainee submitted an attempt
    REGRADE_REQUESTED = "grading_run.requested"  # someone asked for an attempt to be regraded
    GRADES_RECORDED = "grades.recorded"  # the grading service graded (part of) a run
    RUN_FINISHED = "grading_run.finished"  # a grading run's score and pass/fail
    REVIEW_RECORDED = "review.recorded"  # a pit boss reviewed a mistake
    RETRAINING_FLAGGED = "retraining.flagged"  # a pit boss flagged a trainee for retraining
    CERTIFICATION_SIGNED = "certification.signed"  # a pit boss signed off a certification
    CERTIFICATE_ISSUED = "certificate.issued"  # a signed certification's verification code
    REPORT_EXPORTED = "report.exported"  # someone exported a compliance report
    TRAINING_RECORD_EXPORTED = "training_record.exported"  # someone downloaded a training record
    PROFILE_VERSION_CREATED = "profile_version.created"  # a rule set was recorded
    PROFILE_CREATED = "profile.created"  # an admin opened a new table from a copy of one
    # An admin set whether a table's certifications need a passed practical sheet.
    PROFILE_PRACTICAL_SET = "profile.practical_set"
    DRILL_CREATED = "drill.created"  # a pit boss or admin made a drill (practice, exam, table test)
    DRILL_RETIRED = "drill.retired"  # a pit boss or admin retired a drill
    SCENARIO_CREATED = "scenario.created"  # a scenario was authored in the workspace or API
    SCENARIO_REVISED = "scenario.revised"  # a new revision of a scenario superseded the old one
    ASSIGNMENT_CREATED = "assignment.created"  # an instructor assigned a drill
    ASSIGNMENT_REASSIGNED = "assignment.reassigned"  # an instructor changed sittings or due
    ASSIGNMENT_CANCELLED = "assignment.cancelled"  # an instructor cancelled an assignment
    REFRESHER_ASSIGNED = "refresher.assigned"  # a pit boss assigned a refresher on weak skills
    # Classes and rosters (teaching.services.classes).
    CLASS_CREATED = "class.created"  # a pit boss or admin created a training class
    CLASS_RENAMED = "class.renamed"  # a class's name was changed
    CLASS_TRAINEE_ADDED = "class.trainee_added"  # a trainee was put on a class's roster
    CLASS_TRAINEE_REMOVED = "class.trainee_removed"  # a trainee was taken off a roster
    CLASS_INSTRUCTOR_ADDED = "class.instructor_added"  # an admin made a pit boss an instructor
    CLASS_INSTRUCTOR_REMOVED = "class.instructor_removed"  # an admin removed an instructor
    CLASS_JOIN_REQUESTED = "class.join_requested"  # a pit boss asked for another class's trainee
    CLASS_JOIN_ACCEPTED = "class.join_accepted"  # their instructor agreed: the trainee joined
    CLASS_JOIN_DECLINED = "class.join_declined"  # their instructor refused: nothing changed
    CLASS_TRAINEE_TRANSFERRED = "class.trainee_transferred"  # an admin moved a trainee's class
    TRAINEE_INVITED = "trainee.invited"  # a trainee account was created and a link e-mailed
    INVITATION_RESENT = "trainee.invitation_resent"  # a new link for an invitee with no password
    ROSTER_IMPORTED = "roster.imported"  # a roster file was applied (its rows: events above)
    # People (teaching.services.people): an administrator's work on accounts.
    PERSON_CREATED = "person.created"  # an admin made an account with its roles; link e-mailed
    PERSON_ROLES_CHANGED = "person.roles_changed"  # an admin changed someone's roles
    PERSON_DEACTIVATED = "person.deactivated"  # an admin closed an account (it cannot sign in)
    PERSON_REACTIVATED = "person.reactivated"  # an admin opened a closed account again
    PERSON_UNLOCKED = "person.unlocked"  # an admin cleared an account's wrong-password lockout
    PERSON_INVITATION_RESENT = "person.invitation_resent"  # an admin sent a new link to choose
    # Live class sessions (teaching.services.live_sessions): an instructor leading a class.
    LIVE_SESSION_OPENED = "live_session.opened"  # an instructor opened a session for a class
    LIVE_SESSION_JOINED = "live_session.joined"  # a trainee joined (their attempt was made)
    LIVE_QUESTION_OPENED = "live_session.question_opened"  # answers to a question may come in
    LIVE_QUESTION_CLOSED = "live_session.question_closed"  # no more answers; the room counted
    LIVE_QUESTION_REVEALED = "live_session.question_revealed"  # the right answer was shown
    LIVE_SESSION_NEXT = "live_session.next"  # the instructor moved to the next question
    LIVE_SESSION_PAUSED = "live_session.paused"  # the instructor paused the session
    LIVE_SESSION_RESUMED = "live_session.resumed"  # the instructor carried on after a pause
    LIVE_SESSION_NAMES_SHOWN = "live_session.names_shown"  # names shown (or hidden) on screen
    LIVE_SESSION_ENDED = "live_session.ended"  # the session ended; its attempts were submitted
    # Signature authority and the practical test (audit.services.authority, .practical).
    SIGNER_AUTHORITY_SET = "signer.authority_set"  # an admin recorded a rank and licence number
    PRACTICAL_SHEET_SIGNED = "practical_sheet.signed"  # an evaluator signed a practical sheet
    # Vouching (ledger.services.vouch): the digests of the rows written before the ledger
    # vouched for rows, recorded once by a migration; rows older than it are vouched from then.
    VOUCHED_BACKFILLED = "vouched.backfilled"


@unique
class Subject(StrEnum):
    """What a ledger entry is about: the kind of record its `subject_id` names."""

    ASSIGNMENT = "assignment"  # teaching.Assignment
    ATTEMPT = "attempt"  # trainer.Attempt
    CERTIFICATION = "certification"  # audit.Certification
    COMPLIANCE_REPORT = "compliance_report"  # audit's ComplianceReport
    DECISION = "decision"  # trainer.Decision
    DRILL = "drill"  # trainer.Drill
    GRADE = "grade"  # trainer.Grade
    GRADING_RUN = "grading_run"  # trainer.GradingRun
    LIVE_SESSION = "live_session"  # trainer.LiveSession
    PRACTICAL_SHEET = "practical_sheet"  # audit.PracticalSheet
    REPORT_FILE = "report_file"  # a compliance report's file
    ROSTER = "roster"  # a roster file applied to a class
    RULE_PROFILE = "rule_profile"  # trainer.RuleProfile
    RULE_PROFILE_VERSION = "rule_profile_version"  # trainer.RuleProfileVersion
    SCENARIO = "scenario"  # trainer.Scenario
    TRAINEE = "trainee"  # a trainee's user account, as the one trained
    TRAINING_CLASS = "training_class"  # teaching.TrainingClass
    USER = "user"  # a user account, as the one administered
