"""Changing and resetting a password, with Django's own views, kept inside the lockout.

- The change form's current password is checked through ``authenticate`` with the
  request, as the login page checks it, so django-axes counts a wrong one and refuses a
  locked-out account even with the right one: otherwise anyone at an unlocked screen
  could guess at the password there without limit.
- A reset never signs anyone in (the lockout still stands after it: the new password works
  once the lock lifts), never says whether an address has an account, and is throttled:
  a few e-mails an hour to one address, and a few more requests an hour from one client
  address, after which it asks to wait (docs/security.md).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, SetPasswordForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse_lazy

from config.sessions import session_start
from core.devices import device_remember
from core.links import link_validity_words
from core.lockout import client_address, lockout_claim, lockout_message

security_log = logging.getLogger("shoeschool.security")


def _plain_labels(form: SetPasswordForm) -> None:
    form.fields["new_password2"].label = "New password again"
    if "old_password" in form.fields:
        form.fields["old_password"].label = "Current password"


class SignInForm(AuthenticationForm):
    """Django's login form, and whether this is a shared device (a tablet others use)."""

    shared_device = forms.BooleanField(required=False, label="This is a shared device")


class LoginView(auth_views.LoginView):
    """Django's login page. On a shared device the session ends sooner and the browser
    does not remember the person; elsewhere the browser is remembered as one where they
    signed in, which others' wrong passwords then neither lock nor slow (core.devices)."""

    form_class = SignInForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["shared_idle_minutes"] = settings.SHOESCHOOL_SESSION_SHARED_IDLE_MINUTES
        return context

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        shared = bool(form.cleaned_data.get("shared_device"))
        session_start(self.request, shared=shared)
        device_remember(
            self.request, response, username=form.get_user().get_username(), remember=not shared
        )
        return response


class NewPasswordForm(SetPasswordForm):
    """Django's form for a new password (a reset), its labels in plain words."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _plain_labels(self)


class LockoutCheckedPasswordChangeForm(PasswordChangeForm):
    """Django's change form, its current password checked as a login checks it."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        self.request = request
        super().__init__(user, *args, **kwargs)
        _plain_labels(self)

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        confirmed = authenticate(
            self.request, username=self.user.get_username(), password=old_password
        )
        if confirmed is None or confirmed.pk != self.user.pk:
            if lockout_claim(self.request):
                security_log.warning("password change refused: user %s is locked out", self.user.pk)
                raise ValidationError(
                    f"{lockout_message(self.request)} Your password was not changed.",
                    code="locked_out",
                )
            security_log.warning("wrong current password on password change, user %s", self.user.pk)
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = LockoutCheckedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


def _within_limit(key: str, limit: int) -> bool:
    """Count one more use of ``key`` in the current window; False once over the limit."""
    window = int(settings.SHOESCHOOL_PASSWORD_RESET_WINDOW_MINUTES) * 60
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, timeout=window)
        count = 1
    return count <= limit


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request, throttled. Whether or not the address has an account, the
    answer is the same page; an address over its e-mail limit gets no more e-mails this
    window, and is answered as any other (so the limit reveals nothing either)."""

    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
        address = client_address(self.request) or "unknown"
        # One request from a client counts once, whatever it asks for.
        if not _within_limit(
            f"password-reset:client:{address}",
            int(settings.SHOESCHOOL_PASSWORD_RESET_CLIENT_LIMIT),
        ):
            security_log.warning("password reset refused: too many requests from %s", address)
            return render(
                self.request,
                "registration/password_reset_throttled.html",
                {"minutes": settings.SHOESCHOOL_PASSWORD_RESET_WINDOW_MINUTES},
                status=429,
            )
        email = form.cleaned_data["email"].strip().lower()
        digest = hashlib.sha256(email.encode()).hexdigest()
        if not _within_limit(
            f"password-reset:email:{digest}", int(settings.SHOESCHOOL_PASSWORD_RESET_EMAIL_LIMIT)
        ):
            security_log.warning("password reset e-mail not sent: the address's limit is reached")
            return HttpResponseRedirect(self.get_success_url())
        self.extra_email_context = {"link_validity": link_validity_words()}
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    # Never signs in: a login here would pass by the lockout (docs/security.md).
    post_reset_login = False
    form_class = NewPasswordForm
    success_url = reverse_lazy("password_reset_complete")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "link_validity": link_validity_words()}


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    """The "e-mail sent" page, saying how long the link works."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "link_validity": link_validity_words()}
