from django.http import HttpRequest

from core.roles import Role, roles_of


def roles(request: HttpRequest) -> dict[str, object]:
    """Expose the user's roles to templates, so navigation shows each role its own pages."""
    held = roles_of(request.user)
    return {
        "user_roles": held,
        "is_trainee": Role.TRAINEE in held,
        "is_pit_boss": Role.PIT_BOSS in held,
        "is_compliance": Role.COMPLIANCE in held,
        "is_admin": Role.ADMIN in held,
    }
