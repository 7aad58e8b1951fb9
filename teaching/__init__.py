"""Teaching: classes and rosters, invitations and join requests, assignments and their
e-mails, the instructor's workspace under /teach/, the administration of people under
/administration/ and the instructor's and administrator's API. It sits between audit and
trainer (docs/architecture.md); the rows trainer's records point at (TrainingClass,
Assignment, ...) stay in trainer.models."""
