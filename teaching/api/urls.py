"""The instructor's and administrator's endpoints under /api/: drills and the scenario
library, assignments as on /teach/, classes, rosters, join requests, people and a class's
instructors. config.urls includes them in the API's namespace ("api"), beside trainer's."""

from django.urls import path

from teaching.api import administration, class_requests, classes, manager_views, teach

urlpatterns = [
    # Pit bosses and administrators: drills and the scenario library.
    path("drills/", manager_views.DrillListView.as_view(), name="drills"),
    path("drills/<id:drill_id>/", manager_views.DrillDetailView.as_view(), name="drill"),
    path(
        "drills/<id:drill_id>/retire", manager_views.DrillRetireView.as_view(), name="drill-retire"
    ),
    path("scenarios/", manager_views.ScenarioListView.as_view(), name="scenarios"),
    path(
        "scenarios/<id:scenario_id>/", manager_views.ScenarioDetailView.as_view(), name="scenario"
    ),
    path(
        "scenarios/<id:scenario_id>/revise",
        manager_views.ScenarioReviseView.as_view(),
        name="scenario-revise",
    ),
    # The instructor's assignments (pit bosses and admins, as on /teach/).
    path("teach/assignments/", teach.TeachAssignmentListView.as_view(), name="teach-assignments"),
    path(
        "teach/assignments/<id:assignment_id>/",
        teach.TeachAssignmentDetailView.as_view(),
        name="teach-assignment",
    ),
    path(
        "teach/assignments/<id:assignment_id>/reassign",
        teach.TeachAssignmentReassignView.as_view(),
        name="teach-assignment-reassign",
    ),
    path(
        "teach/assignments/<id:assignment_id>/cancel",
        teach.TeachAssignmentCancelView.as_view(),
        name="teach-assignment-cancel",
    ),
    path(
        "teach/assignments/<id:assignment_id>/board",
        teach.TeachAssignmentBoardView.as_view(),
        name="teach-assignment-board",
    ),
    # Classes and rosters: pit bosses and administrators.
    path("classes/", classes.ClassListView.as_view(), name="classes"),
    path("classes/roster/", classes.RosterImportView.as_view(), name="roster-import"),
    path(
        "classes/join-requests/",
        class_requests.JoinRequestsWaitingView.as_view(),
        name="join-requests",
    ),
    path(
        "classes/join-requests/<id:request_id>/accept/",
        class_requests.JoinRequestAnswerView.as_view(accept=True),
        name="join-request-accept",
    ),
    path(
        "classes/join-requests/<id:request_id>/decline/",
        class_requests.JoinRequestAnswerView.as_view(accept=False),
        name="join-request-decline",
    ),
    path(
        "classes/<id:class_id>/join-requests/",
        class_requests.ClassJoinRequestsView.as_view(),
        name="class-join-requests",
    ),
    path(
        "classes/<id:class_id>/transfers/",
        class_requests.ClassTransferView.as_view(),
        name="class-transfers",
    ),
    path("classes/<id:class_id>/", classes.ClassDetailView.as_view(), name="class"),
    path(
        "classes/<id:class_id>/trainees/",
        classes.ClassTraineesView.as_view(),
        name="class-trainees",
    ),
    path(
        "classes/<id:class_id>/trainees/<id:trainee_id>/",
        classes.ClassTraineeView.as_view(),
        name="class-trainee",
    ),
    path(
        "classes/<id:class_id>/invitations/",
        classes.ClassInvitationsView.as_view(),
        name="class-invitations",
    ),
    # Administration (issue #24): administrators only.
    path("admin/people/", administration.PeopleView.as_view(), name="people"),
    path("admin/people/<id:person_id>/", administration.PersonView.as_view(), name="person"),
    path(
        "admin/people/<id:person_id>/roles",
        administration.PersonRolesView.as_view(),
        name="person-roles",
    ),
    path(
        "admin/people/<id:person_id>/close",
        administration.PersonActionView.as_view(action="close"),
        name="person-close",
    ),
    path(
        "admin/people/<id:person_id>/open",
        administration.PersonActionView.as_view(action="open"),
        name="person-open",
    ),
    path(
        "admin/people/<id:person_id>/unlock",
        administration.PersonActionView.as_view(action="unlock"),
        name="person-unlock",
    ),
    path(
        "admin/people/<id:person_id>/invitation",
        administration.PersonActionView.as_view(action="invitation"),
        name="person-invitation",
    ),
    path(
        "classes/<id:class_id>/instructors/",
        administration.ClassInstructorsView.as_view(),
        name="class-instructors",
    ),
    path(
        "classes/<id:class_id>/instructors/<id:instructor_id>/",
        administration.ClassInstructorView.as_view(),
        name="class-instructor",
    ),
]
