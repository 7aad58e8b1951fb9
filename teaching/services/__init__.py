"""Teaching's writes: classes, rosters, invitations, join requests, assignments, e-mails
and people, each with its ledger event."""
