"""The Administration area (/administration/): people and their accounts, classes and their
instructors, moving a trainee between classes. Administrators only; the services check it
again (teaching.services.people, teaching.services.classes)."""
