"""Teaching's reads: classes, assignments, drills as the workspace lists them, people."""
